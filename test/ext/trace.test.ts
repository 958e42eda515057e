import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, start } from "./fixture-host.ts";
import { tempDir } from "../helpers/temp.ts";

test("--ext-trace records every frame in both directions as JSONL with monotonic times", async () => {
  const dir = tempDir("zot-trace-");
  const traceFile = join(dir, "trace.jsonl");
  const t = await start(["kitchen", "garbage"], {}, traceFile);
  try {
    await t.host.invokeCommand("echo", "traced");
    await t.host.shutdown();
    const lines = readFileSync(traceFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const kitchen = lines.filter((l) => l.ext === "kitchen");
    expect(kitchen[0]).toMatchObject({ ext: "kitchen", dir: "in", frame: { type: "hello", name: "kitchen" } });
    expect(kitchen[1]).toMatchObject({ dir: "out", frame: { type: "hello_ack", protocol_version: 1 } });
    expect(kitchen.some((l) => l.dir === "out" && l.frame.type === "command_invoked" && l.frame.args === "traced")).toBe(true);
    expect(kitchen.some((l) => l.dir === "in" && l.frame.type === "command_response" && l.frame.display === "echo:traced")).toBe(true);
    expect(kitchen.some((l) => l.dir === "out" && l.frame.type === "shutdown")).toBe(true);
    // A line that was not JSON is kept, as a string.
    expect(lines.find((l) => l.ext === "garbage")?.frame).toStartWith("Starting weather server");
    for (let i = 1; i < lines.length; i++) expect(lines[i].t).toBeGreaterThanOrEqual(lines[i - 1].t);
  } finally {
    await t.close();
  }
});

test("a secret in tool arguments is masked in the trace, the extension's log and its warnings", async () => {
  const secret = "sk-test-0123456789abcdefghij";
  // The second replacement cuts across JSON syntax, as a mask may: that line goes in as a string.
  const mask = (text: string) => text.split(secret).join("[masked]").replace(`"protocol_version":1`, `"protocol_version":[masked`);
  const dir = tempDir("zot-trace-");
  const traceFile = join(dir, "trace.jsonl");
  const t = await start(["leaky"], {}, traceFile, mask);
  try {
    const r = await t.host.callTool("leak", { key: secret }, { signal: new AbortController().signal });
    // The result belongs to the caller, unmasked: only what the host writes down is masked.
    expect(r.content).toEqual([{ type: "text", text: JSON.stringify({ key: secret }) }]);
    await t.host.shutdown();
    const text = readFileSync(traceFile, "utf8");
    expect(text).not.toContain(secret);
    const lines = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const masked = lines.filter((l) => JSON.stringify(l.frame).includes("[masked"));
    expect(masked.map((l) => [l.dir, typeof l.frame === "string" ? "text" : l.frame.type])).toEqual([
      ["out", "text"],
      ["out", "tool_call"],
      ["in", "text"],
      ["in", `custom {"key":"[masked]"}`],
      ["in", "tool_result"],
    ]);
    expect(masked[0].frame).toStartWith(`{"type":"hello_ack","protocol_version":[masked`);
    expect(masked[1].frame.args).toEqual({ key: "[masked]" });
    const log = t.log("leaky");
    expect(log).not.toContain(secret);
    expect(log).toContain(`[zot] warning: ignored a stdout line that is not JSON: "not json: {\\"key\\":\\"[masked]\\"}"`);
    expect(log).toContain(`[zot] warning: ignored a frame of unknown type "custom {"key":"[masked]"}"`);
    const warnings = t.host.states()[0]!.warnings.join("\n");
    expect(warnings).toContain("[masked]");
    expect(warnings).not.toContain(secret);
  } finally {
    await t.close();
  }
});

test("a trace file that cannot be written is reported by load, which then starts nothing", async () => {
  const dir = tempDir("zot-trace-");
  writeFileSync(join(dir, "file"), "");
  const traceFile = join(dir, "file", "trace.jsonl");
  const missing = join(dir, "no-such-dir", "trace.jsonl");
  const t = await start(["kitchen"], {}, traceFile);
  try {
    expect(t.report).toEqual({
      extensions: [],
      errors: [],
      traceError: `cannot write the extension trace to ${traceFile}: a part of the path is not a directory`,
    });
    expect(t.host.states()).toEqual([]);
    expect(existsSync(join(t.home, "logs"))).toBe(false);
    const load = (file: string) =>
      t.host.load({
        extPaths: [join(FIXTURES, "kitchen")],
        noExt: true,
        cwd: t.home,
        home: t.home,
        info: { zotVersion: "9.9.9", provider: "p", model: "m", cwd: t.home },
        traceFile: file,
      });
    expect((await load(missing)).traceError).toBe(`cannot write the extension trace to ${missing}: its directory does not exist`);
    // A writable path afterwards loads as usual.
    const good = join(dir, "trace.jsonl");
    const report = await load(good);
    expect(report.traceError).toBeUndefined();
    expect(report.extensions.map((s) => [s.name, s.status])).toEqual([["kitchen", "ready"]]);
    await t.host.shutdown();
    expect(readFileSync(good, "utf8")).toContain(`"type":"hello_ack"`);
  } finally {
    await t.close();
  }
});
