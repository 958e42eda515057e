// Kimi K3's dynamic tool loading (the spec's deferred-tool line), Kimi's tool-name rule and prompt
// cache key, against a scripted Kimi server that rejects what the real one rejects.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { basename, join, resolve } from "node:path";
import type { Runtime } from "../../../src/runtime/runtime.ts";
import { createRuntime, type RuntimeOptions } from "../../../src/runtime/setup.ts";
import { createProvider } from "../../../src/agent/providers/index.ts";
import type { ToolSpec } from "../../../src/agent/provider.ts";
import { kimiRejection } from "../../helpers/kimi-rules.ts";
import { testRuntimeOptions } from "../../helpers/mock-runtime.ts";
import { startProviderServer, type ProviderServer, type Reply } from "../../helpers/provider-server.ts";
import { collect } from "../../helpers/collect-stream.ts";
import { elements } from "../../helpers/elements.ts";
import { tempDir } from "../../helpers/temp.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const TOOLBOX = join(ROOT, "test", "fixtures", "agent", "toolbox");
process.env.PATH = `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`;
const KEY = "sk-kimi-test-0123456789abcdef";

type Body = { model: string; tools?: { function: { name: string } }[]; messages: Record<string, unknown>[]; prompt_cache_key?: string };

let home: string;
let server: ProviderServer;
const runtimes: Runtime[] = [];
beforeEach(() => {
  home = tempDir("zot-kimi-");
});
afterEach(async () => {
  for (const r of runtimes.splice(0)) await r.close();
  await server?.stop();
});

async function kimiRuntime(model: string, replies: Reply[], extra: Partial<RuntimeOptions> = {}): Promise<Runtime> {
  server = startProviderServer({ replies, reject: kimiRejection });
  const created = await createRuntime(
    testRuntimeOptions(home, { provider: "kimi", model, apiKey: KEY, baseUrl: server.openaiBase, maxSteps: 20, ext: [TOOLBOX], noSession: false, ...extra }),
  );
  if (!created.ok) throw new Error(created.error);
  runtimes.push(created.runtime);
  return created.runtime;
}

const bodies = () => server.requests.map((r) => r.body as Body);
const topNames = (b: Body) => (b.tools ?? []).map((t) => t.function.name);
const SECRET_DECLARATION = {
  role: "system",
  tools: [{ type: "function", function: { name: "secret", description: "Tells the secret.", parameters: { type: "object", properties: {} } } }],
};

describe("Kimi K3 dynamic tool loading", () => {
  test("an activated tool is declared right after the tool messages of its batch, never top-level, and stays in place in every later request", async () => {
    const rt = await kimiRuntime("kimi-k3", [
      {
        kind: "turn",
        toolCalls: [
          { id: "c1", name: "loader", args: {} },
          { id: "c2", name: "weather", args: { city: "Rome" } },
        ],
      },
      { kind: "turn", toolCalls: [{ id: "c3", name: "secret", args: {} }] },
      { kind: "turn", text: "The secret is 42." },
      { kind: "turn", text: "Still 42." },
    ]);
    const first = await rt.prompt("what is the secret?");
    expect(first).toMatchObject({ stop: "end_turn", text: "The secret is 42." });
    const second = await rt.prompt("and now?");
    expect(second).toMatchObject({ stop: "end_turn", text: "Still 42." });

    const [b0, b1, b2, b3] = elements(bodies(), 4);
    expect(server.requests.length).toBe(4);
    for (const b of [b0, b1, b2, b3]) expect(topNames(b)).toEqual(topNames(b0));
    expect(topNames(b0)).toContain("loader");
    expect(topNames(b0)).not.toContain("secret");

    // system, user, assistant (two calls), tool c1, tool c2, then the declaration.
    expect(b1.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "system"]);
    expect(b1.messages[3]).toMatchObject({ tool_call_id: "c1", content: "loaded secret" });
    expect(b1.messages[4]).toMatchObject({ tool_call_id: "c2" });
    expect(b1.messages[5]).toEqual(SECRET_DECLARATION);
    expect(Object.keys(b1.messages[5]!)).toEqual(["role", "tools"]);

    // Every later request starts with the bytes of the one before: the cached prefix holds.
    const text = (b: Body) => JSON.stringify(b.messages);
    expect(text(b2).startsWith(text(b1).slice(0, -1))).toBe(true);
    expect(text(b3).startsWith(text(b2).slice(0, -1))).toBe(true);
    expect(b3.messages.filter((m) => "tools" in m)).toEqual([SECRET_DECLARATION]);

    // The session id keys Kimi's prompt cache.
    const key = basename(rt.sessionPath!, ".jsonl");
    for (const b of [b0, b1, b2, b3]) expect(b.prompt_cache_key).toBe(key);
  });

  test("the declaration is part of the transcript, so a resumed session sends it in the same place", async () => {
    const rt = await kimiRuntime("kimi-k3", [
      { kind: "turn", toolCalls: [{ id: "c1", name: "loader", args: {} }] },
      { kind: "turn", text: "loaded" },
    ]);
    await rt.prompt("load it");
    const path = rt.sessionPath!;
    const before = bodies()[1]!.messages;
    await rt.close();
    runtimes.splice(0);
    await server.stop();

    const resumed = await kimiRuntime("kimi-k3", [{ kind: "turn", text: "back" }], { session: path });
    expect((await resumed.prompt("again")).text).toBe("back");
    const after = bodies()[0]!;
    expect(JSON.stringify(after.messages).startsWith(JSON.stringify(before).slice(0, -1))).toBe(true);
    expect(after.prompt_cache_key).toBe(basename(path, ".jsonl"));
  });

  test("two loader calls in one batch declare the tool once, after the batch", async () => {
    const rt = await kimiRuntime("kimi-k3", [
      {
        kind: "turn",
        toolCalls: [
          { id: "c1", name: "loader", args: {} },
          { id: "c2", name: "loader", args: {} },
        ],
      },
      { kind: "turn", text: "ok" },
    ]);
    expect((await rt.prompt("go")).text).toBe("ok");
    const b1 = bodies()[1]!;
    expect(b1.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "system"]);
    expect(b1.messages[5]).toEqual(SECRET_DECLARATION);
  });

  test("models without dynamic tool loading get the activated tool in the top-level list on the next request", async () => {
    const rt = await kimiRuntime("kimi-k2.6", [
      { kind: "turn", toolCalls: [{ id: "c1", name: "loader", args: {} }] },
      { kind: "turn", toolCalls: [{ id: "c2", name: "secret", args: {} }] },
      { kind: "turn", text: "42" },
    ]);
    expect((await rt.prompt("go")).text).toBe("42");
    const [b0, b1] = elements(bodies(), 2);
    expect(topNames(b0)).not.toContain("secret");
    expect(topNames(b1)).toContain("secret");
    expect(b1.messages.some((m) => "tools" in m)).toBe(false);
  });

  test('models.json "deferred_tools": "kimi-dynamic" turns the format on for another model id', async () => {
    await Bun.write(
      join(home, "models.json"),
      JSON.stringify({
        kimi: [
          { id: "kimi-k3", deferred_tools: "kimi-dynamic" },
          { id: "my-k3-proxy", deferred_tools: "kimi-dynamic" },
        ],
      }),
    );
    // The scripted server only accepts declarations for kimi-k3, so the proxy id is sent as kimi-k3's rules allow.
    server = startProviderServer({
      replies: [
        { kind: "turn", toolCalls: [{ id: "c1", name: "loader", args: {} }] },
        { kind: "turn", text: "ok" },
      ],
      reject: (body) => kimiRejection({ ...(body as object), model: "kimi-k3" }),
    });
    const created = await createRuntime(
      testRuntimeOptions(home, { provider: "kimi", model: "my-k3-proxy", apiKey: KEY, baseUrl: server.openaiBase, ext: [TOOLBOX] }),
    );
    if (!created.ok) throw new Error(created.error);
    runtimes.push(created.runtime);
    expect((await created.runtime.prompt("go")).text).toBe("ok");
    expect(bodies()[1]!.messages.at(-1)).toEqual(SECRET_DECLARATION);
    // Without a transcript the runtime's own id keys the cache, the same on every request.
    const [key, next] = bodies().map((b) => b.prompt_cache_key);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(next).toBe(key);
  });
});

describe("the scripted Kimi server's rules", () => {
  const fn = (name: string) => ({ type: "function", function: { name, description: "", parameters: { type: "object", properties: {} } } });
  const base = (extra: Record<string, unknown>[]) => ({
    model: "kimi-k3",
    tools: [fn("loader")],
    messages: [
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "loader", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: "ok" },
      ...extra,
    ],
  });

  test("accept the documented declaration and reject a content key, content null, extra keys, a call before its declaration and bad names", () => {
    expect(
      kimiRejection(
        base([
          { role: "system", tools: [fn("grep_logs")] },
          { role: "assistant", content: null, tool_calls: [{ id: "c2", type: "function", function: { name: "grep_logs", arguments: "{}" } }] },
        ]),
      ),
    ).toBeUndefined();
    expect(kimiRejection(base([{ role: "system", tools: [fn("grep_logs")], content: "" }]))).toContain("'content' was unexpected");
    expect(kimiRejection(base([{ role: "system", tools: [fn("grep_logs")], content: null }]))).toContain("'content' was unexpected");
    expect(kimiRejection(base([{ role: "system", tools: [fn("grep_logs")], name: "x" }]))).toContain("'name' was unexpected");
    expect(
      kimiRejection(
        base([
          { role: "assistant", content: null, tool_calls: [{ id: "c2", type: "function", function: { name: "grep_logs", arguments: "{}" } }] },
          { role: "system", tools: [fn("grep_logs")] },
        ]),
      ),
    ).toContain('calls tool "grep_logs", which is not declared before it');
    expect(kimiRejection({ ...base([]), tools: [fn("docs.search")] })).toContain("must match");
    expect(kimiRejection({ ...base([{ role: "system", tools: [fn("grep_logs")] }]), model: "kimi-k2.6" })).toBe("tokenization failed");
  });
});

describe("Kimi requests", () => {
  test("tool names follow Kimi's rule on the way out and come back as zot's names", async () => {
    server = startProviderServer({ reject: kimiRejection, replies: [{ kind: "turn", toolCalls: [{ id: "k2", name: "docs_search", args: { q: "x" } }] }] });
    const tools: ToolSpec[] = [
      { name: "docs.search", description: "search", schema: { type: "object", properties: { q: { type: "string" } } } },
      { name: "docs_search", description: "another", schema: { type: "object", properties: {} } },
      { name: "9lives", description: "digits first", schema: { type: "object", properties: {} } },
    ];
    const { message } = await collect(createProvider({ provider: "kimi", apiKey: KEY, baseUrl: server.openaiBase }), {
      model: "kimi-k3",
      tools,
      messages: [
        { role: "user", content: [{ type: "text", text: "find" }], ts: 0 },
        {
          role: "assistant",
          content: [{ type: "toolCall", id: "k1", name: "docs.search", args: { q: "a" } }],
          stop: "tool_use",
          provider: "kimi",
          model: "kimi-k3",
          usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
          ts: 0,
        },
        { role: "toolResult", toolCallId: "k1", toolName: "docs.search", content: [{ type: "text", text: "found" }], isError: false, ts: 0 },
      ],
    });
    const body = server.requests[0]!.body as Body & { messages: { tool_calls?: { function: { name: string } }[] }[] };
    expect(topNames(body)).toEqual(["docs_search_2", "docs_search", "_9lives"]);
    expect(body.messages[1]!.tool_calls?.[0]?.function.name).toBe("docs_search_2");
    expect(message.stop).toBe("tool_use");
    expect(message.content).toEqual([{ type: "toolCall", id: "k2", name: "docs_search", args: { q: "x" } }]);
  });

  test("--reasoning takes only K3's levels, with a sentence saying which", async () => {
    server = startProviderServer({ reject: kimiRejection });
    const created = await createRuntime(
      testRuntimeOptions(home, { provider: "kimi", model: "kimi-k3", apiKey: KEY, baseUrl: server.openaiBase, reasoning: "medium" }),
    );
    expect(created).toEqual({ ok: false, error: "--reasoning medium is not supported by kimi/kimi-k3; it takes low, high or max.", usage: true });
  });
});
