// The McpHost beside the extension host: names extension tools keep, reloads, deferral that follows
// the model's context window, and load reports for the modes' notices.
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Host } from "../../src/ext/host.ts";
import { McpHost } from "../../src/mcp/host.ts";
import { waitFor } from "../helpers/wait.ts";
import { LEGACY, fixtureLog, loadHost, python, signal, useScratch, writeList } from "./helpers.ts";

let host: McpHost | null = null;
const s = useScratch(async () => {
  await host?.shutdown();
  host = null;
});

/** An extension (plain sh) that registers one tool under the given name. */
function toolExtension(tool: string): string {
  const dir = join(s.root, "ext");
  mkdirSync(dir);
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "taker", version: "1", exec: "./run.sh" }));
  writeFileSync(
    join(dir, "run.sh"),
    `#!/bin/sh\necho '{"type":"hello","name":"taker","version":"1"}'\necho '{"type":"register_tool","name":"${tool}","description":"mine","schema":{"type":"object"}}'\necho '{"type":"ready"}'\nwhile read -r _; do :; done\n`,
  );
  chmodSync(join(dir, "run.sh"), 0o755);
  return dir;
}

test("an extension tool keeps its name; the MCP tool that would take it is left out with a warning", async () => {
  writeList(join(s.home, "mcp.json"), { fx: python(LEGACY) });
  host = new McpHost(new Host(), { files: [], none: false, interactive: false, trust: "all", graceMs: 300, killAfterMs: 300 });
  await host.load({
    extPaths: [toolExtension("mcp__fx__echo")],
    noExt: true,
    cwd: s.project,
    home: s.home,
    info: { zotVersion: "t", provider: "", model: "", cwd: s.project },
  });
  const echo = host.tools().filter((t) => t.name === "mcp__fx__echo");
  expect(echo).toHaveLength(1);
  expect(echo[0]!.extension).toBe("taker");
  expect(host.serverStates()[0]!.warnings).toContain(
    'tool "echo" is shadowed: the name mcp__fx__echo belongs to a built-in or extension tool (loaded earlier)',
  );
});

test("reloading one server (mcp:<name>) or everything restarts the servers", async () => {
  const log = join(s.root, "fixture.jsonl");
  writeList(join(s.home, "mcp.json"), { fx: { ...python(LEGACY), env: { MCP_FIXTURE_LOG: log } } });
  host = await loadHost(s);
  const starts = () => fixtureLog(log).filter((e) => e.event === "initialize").length;
  expect(starts()).toBe(1);
  const one = await host.reload("mcp:fx");
  expect(one.errors).toEqual([]);
  expect(starts()).toBe(2);
  await host.reload();
  expect(starts()).toBe(3);
  expect(await host.callTool("mcp__fx__echo", { text: "again" }, { signal: signal() })).toMatchObject({ content: [{ type: "text", text: "echo: again" }] });
});

test("deferral follows the model's context window and is decided again when the model changes", async () => {
  writeList(join(s.home, "mcp.json"), { fx: python(LEGACY) });
  const windows: Record<string, number> = { small: 2000, big: 1_000_000 };
  host = await loadHost(s, { contextWindow: async (info) => windows[info.model] ?? 0 });
  // The helper loads with model "m": unknown, so the 128 000-token fallback applies and 10 small tools fit.
  expect(host.tools().every((t) => t.active)).toBe(true);
  host.setInfo({ model: "small" });
  await waitFor(() => host!.tools().some((t) => t.name === "mcp_tool_search"));
  expect(
    host
      .tools()
      .filter((t) => t.active)
      .map((t) => t.name),
  ).toEqual(["mcp_tool_search"]);
  host.setInfo({ model: "big" });
  await waitFor(() => !host!.tools().some((t) => t.name === "mcp_tool_search"));
  expect(host.tools().every((t) => t.active)).toBe(true);
});

test("the load report names servers that failed (with their log) and bad lists, for the start-up notices", async () => {
  writeList(join(s.home, "mcp.json"), { gone: { command: "no-such-zot-server" }, bad: { type: "sse", url: "http://x" } });
  host = new McpHost(new Host(), { files: [join(s.root, "missing.json")], none: false, interactive: false, trust: "all" });
  const r = await host.load({ extPaths: [], noExt: true, cwd: s.project, home: s.home, info: { zotVersion: "t", provider: "", model: "", cwd: s.project } });
  expect(r.errors).toEqual([
    { extension: "mcp", message: `the MCP server list ${join(s.root, "missing.json")} does not exist.`, log: "", source: "mcp" },
    { extension: "gone", message: 'the command "no-such-zot-server" was not found on PATH', log: join(s.home, "logs", "mcp-gone.log"), source: "mcp" },
    {
      extension: "mcp",
      message: `MCP server "bad" in ${join(s.home, "mcp.json")}: the HTTP+SSE transport is deprecated and zot does not speak it; if the server offers Streamable HTTP, use "type": "http".`,
      log: "",
      source: "mcp",
    },
  ]);
});

test("a command given as a relative path runs from the server's directory", async () => {
  writeList(join(s.home, "mcp.json"), { rel: { command: "./legacy_server.py", cwd: join(import.meta.dir, "../fixtures/mcp") } });
  host = await loadHost(s);
  expect(host.serverStates()[0]).toMatchObject({ status: "ready", era: "legacy" });
});
