// Servers that misbehave: zot stays up, says what happened in one sentence naming the server and
// its log, and leaves no process behind.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { UiIntent } from "../../src/ext/types.ts";
import { Host } from "../../src/ext/host.ts";
import { McpHost } from "../../src/mcp/host.ts";
import { waitFor } from "../helpers/wait.ts";
import { HOSTILE, loadHost, python, signal, useScratch, writeList } from "./helpers.ts";
import { elements } from "../helpers/elements.ts";
import { alive } from "../helpers/processes.ts";

let host: McpHost | null = null;
const s = useScratch(async () => {
  await host?.shutdown();
  host = null;
});

async function start(mode: string, extra: Record<string, unknown> = {}): Promise<McpHost> {
  writeList(join(s.home, "mcp.json"), { bad: { ...python(HOSTILE, mode), env: { MCP_FIXTURE_LOG: join(s.root, "fixture.jsonl") }, ...extra } });
  host = await loadHost(s);
  return host;
}

test("garbage on stdout is ignored and logged; the answers among it still count", async () => {
  const h = await start("garbage");
  expect(h.serverStates()[0]!.status).toBe("ready");
  expect(await h.callTool("mcp__bad__echo", { x: 1 }, { signal: signal() })).toMatchObject({
    isError: false,
    content: [{ type: "text", text: 'echo {"x": 1}' }],
  });
  const log = readFileSync(join(s.home, "logs", "mcp-bad.log"), "utf8");
  expect(log).toContain("[zot] ignored a stdout line that is not JSON: this is not json");
  expect(log).toContain('[zot] ignored a message without "jsonrpc": "2.0"');
  expect(log).toContain("[zot] ignored an answer to unknown request 99999");
});

test("a server that never answers fails its start after the startup timeout, naming what it waited for", async () => {
  const h = await start("silent", { startupTimeout: 800 });
  const [st] = elements(h.serverStates(), 1);
  expect(st.status).toBe("failed");
  expect(st.error).toBe("no answer to initialize within 0.8 s of the start");
  expect(h.tools()).toEqual([]);
});

test("a run does not wait for a slow server past its limit; the server's tools join once it is ready", async () => {
  writeList(join(s.home, "mcp.json"), { slow: python(HOSTILE, "slowstart") });
  host = await loadHost(s, { waitMs: 300 });
  const intents: UiIntent[] = [];
  host.onIntent((i) => intents.push(i));
  expect(host.tools()).toEqual([]);
  expect(host.serverStates()[0]!.status).toBe("starting");
  await waitFor(() => host!.tools().some((t) => t.name === "mcp__slow__echo"));
  expect(intents.some((i) => i.kind === "registry_changed")).toBe(true);
});

test("a late server that then fails is reported as a note", async () => {
  writeList(join(s.home, "mcp.json"), { late: { ...python(HOSTILE, "silent"), startupTimeout: 700 } });
  host = await loadHost(s, { waitMs: 100 });
  const intents: UiIntent[] = [];
  host.onIntent((i) => intents.push(i));
  const note = await waitFor(() => intents.find((i): i is Extract<UiIntent, { kind: "notify" }> => i.kind === "notify"));
  expect(note).toMatchObject({ extension: "mcp:late", level: "error" });
  expect(note.message).toStartWith("MCP server late did not start: no answer to initialize within 0.7 s of the start (log: ");
});

test("the load report says which servers are still starting", async () => {
  writeList(join(s.home, "mcp.json"), { slow: python(HOSTILE, "slowstart") });
  host = new McpHost(new Host(), { files: [], none: false, interactive: false, trust: "all", waitMs: 300 });
  const r = await host.load({ extPaths: [], noExt: true, cwd: s.project, home: s.home, info: { zotVersion: "t", provider: "", model: "", cwd: s.project } });
  expect(r.errors.map((e) => e.message)).toEqual([
    `MCP server "slow" is still starting after 0.3 s; its tools join the session once it is ready (log: ${join(s.home, "logs", "mcp-slow.log")}).`,
  ]);
});

test("a flood of notifications does not stop calls from being answered", async () => {
  const h = await start("flood");
  const r = await h.callTool("mcp__bad__echo", { n: 2 }, { signal: signal() });
  expect(r).toMatchObject({ isError: false, content: [{ type: "text", text: 'echo {"n": 2}' }] });
  // Its log lines are written down, but only up to a limit.
  const log = readFileSync(join(s.home, "logs", "mcp-bad.log"), "utf8");
  expect(log).toContain('[zot] server info: "flood 0"');
  expect(log).toContain("[zot] the server sent more than 1000 log messages; no longer writing them down");
  expect(log.split("\n").filter((l) => l.startsWith("[zot] server info")).length).toBe(1000);
});

test("a server that dies in the middle of a call fails the call with its exit and last words, and its tools go", async () => {
  const h = await start("dies");
  const intents: UiIntent[] = [];
  h.onIntent((i) => intents.push(i));
  const r = await h.callTool("mcp__bad__crash", {}, { signal: signal() });
  expect(r.isError).toBe(true);
  const text = (r.content[0] as { text: string }).text;
  expect(text).toContain('tool "crash" failed: MCP server "bad" is gone (the server process exited (exit code 3))');
  expect(text).toContain(join(s.home, "logs", "mcp-bad.log"));
  const exited = await waitFor(() => intents.find((i): i is Extract<UiIntent, { kind: "extension_exited" }> => i.kind === "extension_exited"));
  expect(exited.extension).toBe("mcp:bad");
  expect(exited.message).toContain("its last words: fatal: crashing on purpose in the middle of a call");
  expect(h.tools()).toEqual([]);
  expect(h.serverStates()[0]!.status).toBe("exited");
});

test("a server with 500 tools is deferred behind one search tool that activates what the model picks", async () => {
  const h = await start("many");
  const tools = h.tools();
  expect(tools).toHaveLength(501);
  expect(tools.filter((t) => t.active).map((t) => t.name)).toEqual(["mcp_tool_search"]);
  expect(h.serverStates()[0]!.tools.every((t) => t.deferred)).toBe(true);
  const found = await h.callTool("mcp_tool_search", { query: "number 42 " }, { signal: signal() });
  expect((found.content[0] as { text: string }).text).toContain("- mcp__bad__tool_042: Tool number 42 of many");
  const loaded = await h.callTool("mcp_tool_search", { activate: ["mcp__bad__tool_042", "mcp__bad__nope"] }, { signal: signal() });
  expect(loaded.activateTools).toEqual(["mcp__bad__tool_042"]);
  expect((loaded.content[0] as { text: string }).text).toContain("Not found (check the names): mcp__bad__nope.");
  expect(
    h
      .tools()
      .filter((t) => t.active)
      .map((t) => t.name),
  ).toEqual(["mcp__bad__tool_042", "mcp_tool_search"]);
  expect(await h.callTool("mcp__bad__tool_042", { x: "y" }, { signal: signal() })).toMatchObject({ isError: false });
});

test('a server can be kept out of deferral with "defer": false', async () => {
  const h = await start("many", { defer: false });
  expect(h.tools().filter((t) => t.active)).toHaveLength(500);
});

test("shutdown ends the server's whole process group, grandchildren included", async () => {
  const h = await start("grandchild");
  expect(h.serverStates()[0]!.status).toBe("ready");
  const pid = Number(
    await waitFor(() => {
      try {
        return readFileSync(join(s.root, "fixture.jsonl.pid"), "utf8");
      } catch {
        return null;
      }
    }),
  );
  expect(alive(pid)).toBe(true);
  await h.shutdown();
  host = null;
  await waitFor(() => !alive(pid));
});
