import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start } from "./fixture-host.ts";

test("--ext-trace records every frame in both directions as JSONL with monotonic times", async () => {
  const dir = mkdtempSync(join(tmpdir(), "zot-trace-"));
  const traceFile = join(dir, "trace.jsonl");
  const t = await start(["kitchen", "garbage"], {}, traceFile);
  try {
    await t.host.invokeCommand("echo", "traced");
    await t.host.shutdown();
    const lines = readFileSync(traceFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
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
    rmSync(dir, { recursive: true, force: true });
  }
});
