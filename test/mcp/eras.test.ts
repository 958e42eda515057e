// Both protocol eras over stdio, against real fixture servers: the initialize era (2025-11-25, as
// every npm reference server) and 2026-07-28 (server/discover, _meta on every request,
// subscriptions/listen, MRTR). Every method zot uses is exercised on each.
import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { UiIntent } from "../../src/ext/types.ts";
import type { McpHost } from "../../src/mcp/host.ts";
import { waitFor } from "../helpers/wait.ts";
import { LEGACY, MODERN, fixtureLog, loadHost, python, signal, useScratch, writeList } from "./helpers.ts";
import { elements } from "../helpers/elements.ts";

let host: McpHost | null = null;
const s = useScratch(async () => {
  await host?.shutdown();
  host = null;
});
let logFile: string;

beforeEach(() => {
  logFile = join(s.root, "fixture.jsonl");
});

const ERAS = [
  { era: "legacy", script: LEGACY, version: "2025-11-25" },
  { era: "modern", script: MODERN, version: "2026-07-28" },
] as const;

for (const { era, script, version } of ERAS) {
  describe(`the ${era} era (${version})`, () => {
    async function start(interactive = false, extra: Record<string, unknown> = {}): Promise<McpHost> {
      writeList(join(s.home, "mcp.json"), { fx: { ...python(script), env: { MCP_FIXTURE_LOG: logFile, FIXTURE_TOKEN: "${TOK}" }, ...extra } });
      host = await loadHost(s, { interactive, env: { ...process.env, TOK: "token-from-env" } });
      return host;
    }

    test("negotiates the era and lists every page of tools as mcp__<server>__<tool>", async () => {
      const h = await start();
      const [st] = elements(h.serverStates(), 1);
      expect(st).toMatchObject({ status: "ready", era, protocolVersion: version, transport: "stdio" });
      const names = h.tools().map((t) => t.name);
      // Ten valid tools over pages of four; the dotted name is made safe, the array and the too-deep schemas are refused.
      expect(names).toEqual([
        "mcp__fx__echo",
        "mcp__fx__add",
        "mcp__fx__picture",
        "mcp__fx__mixed",
        "mcp__fx__fail",
        "mcp__fx__slow",
        "mcp__fx__ask",
        "mcp__fx__change",
        "mcp__fx__whereami",
        "mcp__fx__dotted_name",
      ]);
      expect(st.warnings).toContain('tool "bad-schema" rejected: its inputSchema type must be "object", got "array"');
      expect(st.warnings).toContain('tool "deep" rejected: its inputSchema is nested more than 64 levels deep');
      expect(h.tools().every((t) => t.extension === "mcp:fx" && t.active)).toBe(true);
      const seen = fixtureLog(logFile).map((e) => e.method);
      if (era === "legacy") expect(seen).toContain("initialize");
      else expect(seen).not.toContain("initialize");
      if (era === "modern") await waitFor(() => fixtureLog(logFile).some((e) => e.method === "subscriptions/listen"));
    });

    test("maps results: text, structuredContent, images, audio and resources as text, isError", async () => {
      const h = await start();
      expect(await h.callTool("mcp__fx__echo", { text: "hi" }, { signal: signal() })).toMatchObject({
        content: [{ type: "text", text: "echo: hi" }],
        isError: false,
        extension: "mcp:fx",
      });
      expect(await h.callTool("mcp__fx__add", { a: 2, b: 3 }, { signal: signal() })).toMatchObject({
        content: [{ type: "text", text: "5" }],
        structured: { sum: 5 },
      });
      expect((await h.callTool("mcp__fx__picture", {}, { signal: signal() })).content[0]).toMatchObject({ type: "image", mime_type: "image/png" });
      const mixed = (await h.callTool("mcp__fx__mixed", {}, { signal: signal() })).content.map((c) => (c.type === "text" ? c.text : c.type));
      expect(mixed[0]).toContain("[audio audio/wav");
      expect(mixed[1]).toBe("[resource link: readme <fixture://readme>] the readme");
      expect(mixed[2]).toBe("[resource fixture://inline]\ninline text");
      expect(await h.callTool("mcp__fx__fail", {}, { signal: signal() })).toMatchObject({
        isError: true,
        content: [{ type: "text", text: "this tool always fails" }],
      });
      expect(await h.callTool("mcp__fx__dotted_name", {}, { signal: signal() })).toMatchObject({ content: [{ type: "text", text: "dotted ok" }] });
    });

    test("expands ${VAR} in env and runs the server in the project directory", async () => {
      const h = await start();
      const r = await h.callTool("mcp__fx__whereami", {}, { signal: signal() });
      expect(r.content[0]).toEqual({ type: "text", text: `${s.project} token-from-env` });
    });

    test("progress notifications reach the caller and keep a long call alive past its timeout", async () => {
      const h = await start();
      const progress: string[] = [];
      const r = await h.callTool("mcp__fx__slow", { steps: 5, ms: 200 }, { signal: signal(), timeoutMs: 600, onProgress: (t) => progress.push(t) });
      expect(r).toMatchObject({ isError: false, content: [{ type: "text", text: "slept 5 steps" }] });
      expect(progress).toEqual(["step 1 of 5", "step 2 of 5", "step 3 of 5", "step 4 of 5", "step 5 of 5"]);
    });

    test("a call without an answer in time fails naming the server and is cancelled on the wire", async () => {
      const h = await start();
      const r = await h.callTool("mcp__fx__slow", { steps: 1, ms: 5000 }, { signal: signal(), timeoutMs: 300 });
      expect(r.isError).toBe(true);
      expect(r.content[0]).toMatchObject({ type: "text" });
      expect((r.content[0] as { text: string }).text).toContain('MCP server "fx" did not answer tool "slow"');
      await waitFor(() => fixtureLog(logFile).some((e) => e.method === "notifications/cancelled"));
    });

    test("aborting a call sends notifications/cancelled and reports the cancellation", async () => {
      const h = await start();
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 200);
      const r = await h.callTool("mcp__fx__slow", { steps: 20, ms: 100 }, { signal: ac.signal });
      expect((r.content[0] as { text: string }).text).toBe('tool "slow" on MCP server "fx" was cancelled');
      await waitFor(() => fixtureLog(logFile).some((e) => e.event === "cancelled"));
    });

    test("an elicitation is declined with a note when nobody can answer it", async () => {
      const h = await start();
      const notes: UiIntent[] = [];
      h.onIntent((i) => notes.push(i));
      const r = await h.callTool("mcp__fx__ask", {}, { signal: signal() });
      expect(r.content[0]).toEqual({ type: "text", text: "no answer: decline" });
      expect(notes.find((n) => n.kind === "notify")).toMatchObject({ extension: "mcp:fx", level: "warn" });
    });

    test("an elicitation in the interactive mode opens a form panel whose answer reaches the server", async () => {
      const h = await start(true);
      const intents: UiIntent[] = [];
      h.onIntent((i) => intents.push(i));
      const call = h.callTool("mcp__fx__ask", {}, { signal: signal() });
      const open = await waitFor(() => intents.find((i): i is Extract<UiIntent, { kind: "panel_open" }> => i.kind === "panel_open"));
      expect(open.panel.lines.join("\n")).toContain("What is your name?");
      h.panelKey(open.panel.id, "enter");
      // A required field left empty is refused in the panel, not sent.
      const refused = intents.find((i): i is Extract<UiIntent, { kind: "panel_render" }> => i.kind === "panel_render");
      expect(refused?.lines?.at(-1)).toMatch(/^(Name|name) is required\.$/);
      for (const ch of "Bob") h.panelKey(open.panel.id, "rune", ch);
      h.panelKey(open.panel.id, "enter");
      expect(await call).toMatchObject({ content: [{ type: "text", text: "hello Bob" }] });
      expect(intents.some((i) => i.kind === "panel_close")).toBe(true);
      if (era === "modern") {
        const retry = fixtureLog(logFile).find((e) => e.event === "call" && e.name === "ask" && e.requestState === "state-123");
        expect(retry).toMatchObject({ inputResponses: { who: { action: "accept", content: { name: "Bob" } } } });
      }
    });

    test("the time the user takes to answer a form does not count against the call's timeout", async () => {
      const h = await start(true);
      const intents: UiIntent[] = [];
      h.onIntent((i) => intents.push(i));
      const call = h.callTool("mcp__fx__ask", {}, { signal: signal(), timeoutMs: 300 });
      const open = await waitFor(() => intents.find((i): i is Extract<UiIntent, { kind: "panel_open" }> => i.kind === "panel_open"));
      await Bun.sleep(800);
      for (const ch of "Eve") h.panelKey(open.panel.id, "rune", ch);
      h.panelKey(open.panel.id, "enter");
      expect(await call).toMatchObject({ isError: false, content: [{ type: "text", text: "hello Eve" }] });
    });

    test("a tools/list_changed updates the tool set for the next request", async () => {
      const h = await start();
      const intents: UiIntent[] = [];
      h.onIntent((i) => intents.push(i));
      expect(h.tools().some((t) => t.name === "mcp__fx__late")).toBe(false);
      await h.callTool("mcp__fx__change", {}, { signal: signal() });
      await waitFor(() => h.tools().some((t) => t.name === "mcp__fx__late"));
      expect(intents.some((i) => i.kind === "registry_changed")).toBe(true);
      expect(await h.callTool("mcp__fx__late", {}, { signal: signal() })).toMatchObject({ content: [{ type: "text", text: "late tool ran" }] });
    });

    test("prompts are slash commands whose text becomes the prompt", async () => {
      const h = await start();
      expect(h.commands().map((c) => c.name)).toEqual(["mcp__fx__review", "mcp__fx__hello"]);
      expect(h.commands()[0]).toMatchObject({ extension: "mcp:fx", description: "Review a file — <file> [focus]" });
      const r = await h.invokeCommand("/mcp__fx__review", "src/a.ts error handling");
      expect(r).toMatchObject({ ok: true, extension: "mcp:fx", response: { action: "prompt", prompt: "Please review src/a.ts focusing on error handling" } });
      expect(await h.invokeCommand("mcp__fx__review", "focus=speed file=b.ts")).toMatchObject({
        ok: true,
        response: { prompt: "Please review b.ts focusing on speed" },
      });
      expect(await h.invokeCommand("mcp__fx__review", "")).toEqual({
        ok: false,
        error: "/mcp__fx__review needs file; usage: /mcp__fx__review <file> [focus] (or name=value pairs)",
      });
    });

    test("@server:uri attaches the resource to the prompt", async () => {
      const h = await start();
      const r = await h.attach("summarise @fx:fixture://readme please");
      expect(r.errors).toEqual([]);
      expect(r.text).toBe(
        'summarise @fx:fixture://readme please\n\n<resource server="fx" uri="fixture://readme">\n[resource fixture://readme]\nThe fixture readme says hi.\n</resource>',
      );
      const missing = await h.attach("see @fx:fixture://nothing and @someone:else://x");
      expect(missing.errors).toHaveLength(1);
      expect(missing.errors[0]).toStartWith("@fx:fixture://nothing was not attached: resource fixture://nothing failed on MCP server");
    });

    test("remembers the era it found, keyed by what the server runs", async () => {
      await start();
      const eras = JSON.parse(readFileSync(join(s.home, "mcp-eras.json"), "utf8"));
      expect(eras.fx).toMatchObject({ era, version, target: `python3 ${script}` });
      await host!.shutdown();
      // The next start uses it: the initialize era goes straight to initialize, without the probe.
      host = await loadHost(s, { env: { ...process.env, TOK: "x" } });
      expect(host.serverStates()[0]).toMatchObject({ status: "ready", era });
      const discovers = fixtureLog(logFile).filter((e) => e.method === "server/discover").length;
      expect(discovers).toBe(era === "legacy" ? 1 : 2);
    });

    test("writes the server's stderr and zot's notes to $ZOT_HOME/logs/mcp-<name>.log", async () => {
      const h = await start();
      const log = h.serverStates()[0]!.log;
      expect(log).toBe(join(s.home, "logs", "mcp-fx.log"));
      expect(existsSync(log)).toBe(true);
      expect(readFileSync(log, "utf8")).toContain(`[zot] speaking MCP ${version}`);
    });
  });
}
