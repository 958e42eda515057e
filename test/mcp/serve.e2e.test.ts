// `zot mcp serve` driven by the official TypeScript MCP SDK's client, over stdio and Streamable
// HTTP, through the built binary: the served tools (built-ins and a real extension's), progress,
// the extension's interceptor blocking a call and hearing the client's name, approval by
// elicitation, cancellation, tools/list_changed after a late registration, and a client that goes
// away mid-call leaving no process behind. The 2026-07-28 era is spoken by hand (the SDK speaks
// 2025-11-25).
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { jsonLines, mockScript, runZot, useZotHome, ZOT, zotEnv } from "../e2e/zot.ts";
import { waitFor } from "../helpers/wait.ts";
import { alive } from "../helpers/processes.ts";

const EXT = resolve(import.meta.dir, "../fixtures/ext/mcp-serve");
const TOKEN = "test-token-0123456789abcdef";
const e2e = useZotHome({ prefix: "zot-mcp-serve-", homeDir: "home" });

type Text = { type: string; text?: string };
const textOf = (r: { content?: unknown } | Record<string, unknown>): string => ((r.content ?? []) as Text[]).map((b) => b.text ?? "").join("");

/** Processes whose command line contains `marker` (a sleep with an unusual duration). */
function running(marker: string): number[] {
  const r = Bun.spawnSync(["pgrep", "-f", marker]);
  return new TextDecoder()
    .decode(r.stdout)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map(Number)
    .filter((pid) => pid !== process.pid);
}

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function stdioTransport(flags: string[]): StdioClientTransport {
  return new StdioClientTransport({ command: ZOT, args: ["mcp", "serve", "--ext", EXT, ...flags], env: zotEnv(e2e.home), cwd: e2e.root, stderr: "pipe" });
}

/** Starts `zot mcp serve --http 0` and returns its URL, read from the line it prints on stderr. */
async function startHttp(flags: string[]): Promise<{ url: string; proc: ReturnType<typeof Bun.spawn> }> {
  const proc = Bun.spawn([ZOT, "mcp", "serve", "--http", "0", "--token-env", "ZOT_MCP_TOKEN", "--ext", EXT, ...flags], {
    cwd: e2e.root,
    env: zotEnv(e2e.home, { ZOT_MCP_TOKEN: TOKEN }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  cleanups.push(async () => {
    proc.kill();
    await proc.exited;
  });
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`zot mcp serve --http exited: ${text}`);
    text += new TextDecoder().decode(value);
    const m = /listening on (\S+)/.exec(text);
    if (m) return { url: m[1]!, proc };
  }
}

function httpTransport(url: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
}

async function connect(
  transport: Transport,
  elicit?: (message: string) => { action: "accept" | "decline"; content?: Record<string, boolean> },
): Promise<Client> {
  const client = new Client({ name: "zot-test-client", version: "1.0.0" }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async (req) => elicit(String(req.params.message)));
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

const transports: [string, (flags: string[]) => Promise<Transport>][] = [
  ["stdio", async (flags) => stdioTransport(flags)],
  ["http", async (flags) => httpTransport((await startHttp(flags)).url)],
];

describe.each(transports)("zot mcp serve over %s", (_name, open) => {
  test("lists the built-in and extension tools and calls one with progress", async () => {
    const client = await connect(await open(["--permission-mode", "yolo"]));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(["read", "write", "edit", "bash", "shout", "nap", "grow", "seen"]);
    const progress: string[] = [];
    const r = await client.callTool({ name: "shout", arguments: { text: "hello" } }, undefined, { onprogress: (p) => progress.push(String(p.message)) });
    expect(textOf(r)).toBe("HELLO");
    // The SDK drops a progress notification it handles after the reply (its handlers run a tick late).
    expect(progress[0]).toBe("warming up");
    expect(progress.filter((p) => p !== "warming up" && p !== "shouting")).toEqual([]);
    const bash = await client.callTool({ name: "bash", arguments: { command: "echo served" } });
    expect(textOf(bash).trim()).toBe("served");
  });

  test("the extension's interceptor blocks a call, and its events carry the MCP client's name", async () => {
    const client = await connect(await open(["--permission-mode", "yolo"]));
    const blocked = await client.callTool({ name: "shout", arguments: { text: "forbidden" } });
    expect(blocked.isError).toBe(true);
    expect(textOf(blocked)).toBe("Blocked by extension served: served refuses forbidden things");
    await client.callTool({ name: "bash", arguments: { command: "true" } });
    const seen = JSON.parse(textOf(await client.callTool({ name: "seen", arguments: {} })));
    expect(seen).toContainEqual({ event: "intercept", tool: "shout", mcp_client: "zot-test-client" });
    expect(seen).toContainEqual({ event: "intercept", tool: "bash", mcp_client: "zot-test-client" });
    expect(seen).toContainEqual({ event: "event", tool: "bash", mcp_client: "zot-test-client" });
    // The blocked call never ran, so no tool_call event announced it.
    expect(seen).not.toContainEqual({ event: "event", tool: "shout", mcp_client: "zot-test-client" });
  });

  test("a call the permission mode asks about is put to the client by elicitation", async () => {
    const questions: string[] = [];
    let allow = true;
    const client = await connect(await open(["--permission-mode", "ask"]), (message) => {
      questions.push(message);
      return { action: "accept", content: { allow } };
    });
    const made = await client.callTool({ name: "bash", arguments: { command: "touch made-by-mcp" } });
    expect(made.isError).toBe(false);
    expect(existsSync(join(e2e.root, "made-by-mcp"))).toBe(true);
    expect(questions[0]).toContain("$ touch made-by-mcp");
    allow = false;
    const refused = await client.callTool({ name: "bash", arguments: { command: "touch refused-by-user" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe("The user declined this tool call: the user of zot-test-client did not allow it");
    expect(existsSync(join(e2e.root, "refused-by-user"))).toBe(false);
  });

  test("without elicitation, a call that needs asking is refused with what to do", async () => {
    const client = await connect(await open(["--permission-mode", "ask"]));
    const r = await client.callTool({ name: "write", arguments: { path: "nope.txt", content: "x" } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("zot-test-client cannot be asked (it does not support form elicitation), so zot refused it");
    expect(existsSync(join(e2e.root, "nope.txt"))).toBe(false);
  });

  test("a late registration sends tools/list_changed", async () => {
    const client = await connect(await open(["--permission-mode", "yolo"]));
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
    // Over HTTP the notification travels on the session's GET stream, which the SDK opens after initialize.
    await client.callTool({ name: "grow", arguments: {} });
    await waitFor(() => changed > 0);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("extra");
    expect(textOf(await client.callTool({ name: "extra", arguments: {} }))).toBe("extra ran");
  });

  test("cancelling a call stops the extension's child process", async () => {
    const client = await connect(await open(["--permission-mode", "yolo"]));
    const marker = "311.125";
    const abort = new AbortController();
    const call = client.callTool({ name: "nap", arguments: { seconds: Number(marker) } }, undefined, { signal: abort.signal });
    await waitFor(() => running(`sleep ${marker}`).length > 0);
    abort.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() => running(`sleep ${marker}`).length === 0);
    // The server goes on serving.
    expect(textOf(await client.callTool({ name: "shout", arguments: { text: "still here" } }))).toBe("STILL HERE");
  });

  test("unknown tools and bad arguments are clear errors", async () => {
    const client = await connect(await open(["--permission-mode", "yolo"]));
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(
      'Unknown tool "no_such_tool"; zot serves read, write, edit, bash, shout, nap, grow, seen',
    );
  });
});

test("a stdio client that goes away mid-call leaves no process behind", async () => {
  const transport = stdioTransport(["--permission-mode", "yolo"]);
  const client = await connect(transport);
  const marker = "313.375";
  void client.callTool({ name: "bash", arguments: { command: `sleep ${marker}` } }).catch(() => undefined);
  void client.callTool({ name: "nap", arguments: { seconds: 317.625 } }).catch(() => undefined);
  await waitFor(() => running(`sleep ${marker}`).length > 0 && running("sleep 317.625").length > 0);
  const pid = transport.pid!;
  await client.close();
  await waitFor(() => !alive(pid) && running(`sleep ${marker}`).length === 0 && running("sleep 317.625").length === 0);
});

test("an HTTP client that goes away mid-call stops the call, and the server serves on", async () => {
  const { url, proc } = await startHttp(["--permission-mode", "yolo"]);
  const transport = httpTransport(url);
  const client = await connect(transport);
  const marker = "314.875";
  void client.callTool({ name: "bash", arguments: { command: `sleep ${marker}` } }).catch(() => undefined);
  await waitFor(() => running(`sleep ${marker}`).length > 0);
  await transport.close();
  await waitFor(() => running(`sleep ${marker}`).length === 0);
  expect(alive(proc.pid)).toBe(true);
  const again = await connect(httpTransport(url));
  expect(textOf(await again.callTool({ name: "shout", arguments: { text: "next" } }))).toBe("NEXT");
});

test("zot_agent runs a whole task with zot's model and tools, with progress, and answers", async () => {
  const script = mockScript(e2e.root, [{ tool_calls: [{ name: "shout", args: { text: "from the agent" } }] }, { text: "the agent is done" }]);
  const client = await connect(stdioTransport(["--permission-mode", "yolo", "--mock-script", script]));
  const tools = (await client.listTools()).tools;
  expect(tools.map((t) => t.name)).toContain("zot_agent");
  const progress: string[] = [];
  const r = await client.callTool({ name: "zot_agent", arguments: { prompt: "shout something" } }, undefined, {
    onprogress: (p) => progress.push(String(p.message)),
  });
  expect(r.isError).toBe(false);
  expect(textOf(r)).toBe("the agent is done");
  expect(progress).toContain('shout {"text":"from the agent"}');
});

test("zot_agent with an agent runs the task as that zot agent; an unknown agent is an error naming the agents", async () => {
  const script = mockScript(e2e.root, [{ tool_calls: [{ name: "bash", args: { command: "echo looked around" } }] }, { text: "explored it" }]);
  const client = await connect(stdioTransport(["--permission-mode", "yolo", "--mock-script", script]));
  const progress: string[] = [];
  const r = await client.callTool({ name: "zot_agent", arguments: { prompt: "look around", agent: "explore" } }, undefined, {
    onprogress: (p) => progress.push(String(p.message)),
  });
  expect(r.isError).toBe(false);
  expect(textOf(r)).toContain("explored it");
  expect(progress.join("\n")).toContain("bash");
  const unknown = await client.callTool({ name: "zot_agent", arguments: { prompt: "x", agent: "nobody" } });
  expect(unknown.isError).toBe(true);
  expect(textOf(unknown)).toContain('there is no agent "nobody" (the agents are general, explore');
});

test("a provider key that a served tool reads is masked in what the client gets", async () => {
  const key = "sk-ant-served-secret-0123456789abcdef";
  writeFileSync(join(e2e.root, "leak.txt"), `the key is ${key}\n`);
  const transport = new StdioClientTransport({
    command: ZOT,
    args: ["mcp", "serve"],
    env: zotEnv(e2e.home, { ANTHROPIC_API_KEY: key }),
    cwd: e2e.root,
    stderr: "pipe",
  });
  const client = await connect(transport);
  const r = await client.callTool({ name: "read", arguments: { path: "leak.txt" } });
  expect(r.isError).toBe(false);
  expect(textOf(r)).toContain("the key is ");
  expect(JSON.stringify(r)).not.toContain(key);
});

test("without a provider key, zot_agent is not offered (the tools need no model)", async () => {
  const client = await connect(stdioTransport([]));
  expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("zot_agent");
});

describe("HTTP: what a client must get right", () => {
  test("a request without the bearer token is refused with 401", async () => {
    const { url } = await startHttp([]);
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="zot"');
  });

  test("a request from a web page (a foreign Origin) is refused with 403", async () => {
    const { url } = await startHttp([]);
    const res = await fetch(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, Origin: "https://evil.example", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      "requests from the web page https://evil.example are refused (Origin is not loopback)",
    );
  });

  test("--http without --token-env is a usage error", async () => {
    const proc = Bun.spawn([ZOT, "mcp", "serve", "--http", "0"], { env: zotEnv(e2e.home), stdout: "pipe", stderr: "pipe" });
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    expect(code).toBe(2);
    expect(stderr).toContain("zot: --http needs --token-env VAR");
  });
});

describe("the 2026-07-28 era over HTTP", () => {
  const META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "modern-client", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const post = async (
    url: string,
    body: { jsonrpc: "2.0"; id: number; method: string; params: Record<string, unknown> },
    version = "2026-07-28",
  ): Promise<Record<string, unknown>> => {
    const name: Record<string, string> = body.method === "tools/call" ? { "Mcp-Name": String(body.params.name) } : {};
    const res = await fetch(url, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${TOKEN}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "MCP-Protocol-Version": version,
        "Mcp-Method": body.method,
        ...name,
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    // JSON, or an SSE stream whose last event is the reply.
    const last = res.headers.get("content-type")?.includes("text/event-stream")
      ? text
          .split("\n")
          .filter((l) => l.startsWith("data: "))
          .pop()!
          .slice(6)
      : text;
    return JSON.parse(last) as Record<string, unknown>;
  };

  test("server/discover, then a call whose approval is an input_required round", async () => {
    const { url } = await startHttp(["--permission-mode", "ask"]);
    const discover = await post(url, { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } });
    expect(discover.result).toMatchObject({
      resultType: "complete",
      supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
      capabilities: { tools: { listChanged: true } },
    });
    const meta = { ...META, "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } };
    const first = (
      await post(url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "bash", arguments: { command: "touch modern-made" }, _meta: meta } })
    ).result as Record<string, unknown>;
    expect(first.resultType).toBe("input_required");
    const ask = (first.inputRequests as Record<string, { method: string; params: { message: string } }>).approval!;
    expect(ask.method).toBe("elicitation/create");
    expect(ask.params.message).toContain("for modern-client");
    const second = await post(url, {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: {
        name: "bash",
        arguments: { command: "touch modern-made" },
        inputResponses: { approval: { action: "accept", content: { allow: true } } },
        requestState: first.requestState,
        _meta: meta,
      },
    });
    expect(second.result).toMatchObject({ resultType: "complete", isError: false });
    expect(existsSync(join(e2e.root, "modern-made"))).toBe(true);
  });

  test("a request in an unknown protocol version is refused with the versions zot speaks", async () => {
    const { url } = await startHttp([]);
    const bare = await post(url, {
      jsonrpc: "2.0",
      id: 9,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
    });
    expect(bare).toMatchObject({
      id: 9,
      error: { code: -32602, message: 'a 2026-07-28 request needs "io.modelcontextprotocol/clientCapabilities" (an object, {} for none) in params._meta' },
    });
    const r = await post(
      url,
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } } },
      "2099-01-01",
    );
    expect(r.error).toMatchObject({
      code: -32022,
      data: { supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"], requested: "2099-01-01" },
    });
    const mismatch = await post(url, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
      params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
    });
    expect(mismatch.error).toMatchObject({ code: -32020 });
  });
});

test("zot's own MCP client uses zot mcp serve in the 2026-07-28 era, from the model's tool call to the result", async () => {
  const list = join(e2e.root, "self.json");
  writeFileSync(
    list,
    JSON.stringify({ mcpServers: { self: { command: ZOT, args: ["mcp", "serve", "--no-mcp", "--ext", EXT, "--permission-mode", "yolo"] } } }),
  );
  const doctor = await runZot(["mcp", "doctor", "--json", "--mcp", list], { home: e2e.home, cwd: e2e.root });
  const entry = (JSON.parse(doctor.stdout) as { servers: { era: string; tools: { name: string }[] }[] }).servers[0]!;
  expect(entry.era).toBe("modern");
  expect(entry.tools.map((t) => t.name)).toContain("mcp__self__shout");
  const script = mockScript(e2e.root, [{ tool_calls: [{ name: "mcp__self__shout", args: { text: "zot to zot" } }] }, { text: "done" }]);
  const run = await runZot(["--json", "--permission-mode", "yolo", "--mock-script", script, "--mcp", list, "call it"], { home: e2e.home, cwd: e2e.root });
  const result = jsonLines(run.stdout).find((e) => e.type === "tool_result");
  expect(result).toMatchObject({ name: "mcp__self__shout", is_error: false, content: [{ type: "text", text: "ZOT TO ZOT" }] });
});
