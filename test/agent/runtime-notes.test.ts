import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { AgentEvent } from "../../src/agent/events.ts";
import { startMockRuntime } from "../helpers/mock-runtime.ts";
import { tempDir } from "../helpers/temp.ts";

const NOTER = resolve(import.meta.dir, "../fixtures/agent/noter");

test("an extension note that arrives before any mode subscribed is delivered to the first subscriber", async () => {
  const home = tempDir("zot-notes-");
  const trace = join(home, "trace.jsonl");
  const runtime = await startMockRuntime(home, { ext: [NOTER], extTrace: trace });
  try {
    // The trace is buffered until shutdown, so wait for the note through the host instead.
    await new Promise<void>((done) => {
      const off = runtime.host.onIntent((i) => {
        if (i.kind === "notify") {
          off();
          done();
        }
      });
    });
    const seen: AgentEvent[] = [];
    runtime.subscribe((e) => seen.push(e));
    expect(seen).toEqual([{ type: "ext_notify", extension: "noter", level: "warn", message: "configure me first" }]);
    // Only the first subscriber gets the early notes.
    const later: AgentEvent[] = [];
    runtime.subscribe((e) => later.push(e));
    expect(later).toEqual([]);
  } finally {
    await runtime.close();
    expect(existsSync(trace) && readFileSync(trace, "utf8").includes("configure me first")).toBe(true);
  }
});
