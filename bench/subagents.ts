// The overhead of a subagent round trip (issue 24): one prompt whose model call asks for a `task`
// whose subagent answers at once (one model call of its own), against the same prompt asking for a
// `read` of a small file instead. Both on the in-process runtime with the offline mock model, so the
// difference is what a subagent adds: the agent definitions read from disk, its system prompt, a
// second loop with its own model call, the tagged events and the transcript rows. Also: four tasks
// in one message (run together) against four reads.
//
//   bun bench/subagents.ts [runs]   (default 200 per case, interleaved)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./harness.ts";
import { startMockRuntime } from "../test/helpers/mock-runtime.ts";

const RUNS = Number(process.argv[2] ?? 200);
const home = mkdtempSync(join(tmpdir(), "zot-bench-subagents-"));
writeFileSync(join(home, "small.txt"), "a small file\n");

const rt = await startMockRuntime(home);

const call = (tool: string, args: object): string => `call ${tool} ${JSON.stringify(args)}`;
const cases: Record<string, string> = {
  read: call("read", { path: "small.txt" }),
  task: call("task", { description: "answer", prompt: "say hello" }),
  read4: Array.from({ length: 4 }, () => call("read", { path: "small.txt" })).join("\n"),
  task4: Array.from({ length: 4 }, (_, i) => call("task", { description: `answer ${i}`, prompt: `say hello ${i}` })).join("\n"),
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));

for (let i = 0; i < RUNS + 10; i++) {
  for (const [name, prompt] of Object.entries(cases)) {
    rt.clear();
    const t = performance.now();
    const out = await rt.prompt(prompt);
    const ms = performance.now() - t;
    if (out.stop !== "end_turn") throw new Error(`${name}: the prompt ended with ${out.stop}: ${out.error ?? ""}`);
    // The first rounds warm the JIT and the file cache.
    if (i >= 10) times[name]?.push(ms);
  }
}
await rt.close();
rmSync(home, { recursive: true, force: true });

const m = (k: string) => median(times[k] ?? []);
console.log(`${cpus().length} CPUs, ${cpus()[0]?.model ?? "?"}; bun ${Bun.version}; ${RUNS} runs per case, medians`);
console.log(`one read:   ${m("read").toFixed(2)} ms`);
console.log(`one task:   ${m("task").toFixed(2)} ms   (subagent round trip overhead ${(m("task") - m("read")).toFixed(2)} ms)`);
console.log(`four reads: ${m("read4").toFixed(2)} ms`);
console.log(`four tasks: ${m("task4").toFixed(2)} ms   (overhead ${(m("task4") - m("read4")).toFixed(2)} ms for four, run together)`);
