// When a one-bash-call `zot -p` reaches the model, and when it is done: the arrival of its first
// request, of its second (after the `echo ok` command ran) and the process's exit, in ms from the
// spawn, medians of interleaved runs: where a sandboxed start's extra wall time falls (before the
// first request: the probe, the command server's start; between the requests: the command through
// the server; at the end: the exit). Each binary runs
//   sandboxed                   the boot's verdict remembered (agent/sandbox/verdict-memory.ts)
//   sandboxed, not remembered   $ZOT_HOME/sandbox-verdict.json removed before the run: the verdict
//                               is found out at start, as on the first start after a boot
//   --sandbox off
// The model is the benchmarks' scripted one (bench/scripted-model.ts), timing each request as it
// arrives: the first is answered with the bash call, the second with text.
//
// With --guard, every run also loads the benchmarks' guard extension (bench/guard-c, a tool_call
// interceptor), as bench/zot-vs-go.ts's echo does.
//
//   bun bench/first-request.ts [--guard] [runs] [binary…]   (default 20 runs; dist/zot)
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildEnv, compileGuard, machine, median, printArgs, unsandboxed } from "./harness.ts";
import { startScriptedModel } from "./scripted-model.ts";
import { freshBinary } from "../scripts/build-freshness.ts";

const ROOT = resolve(import.meta.dir, "..");
const argv = process.argv.slice(2);
const withGuard = argv[0] === "--guard";
if (withGuard) argv.shift();
const RUNS = Number(argv[0] ?? 20);
const binaries = argv.length > 1 ? argv.slice(1).map((b) => resolve(b)) : [freshBinary(ROOT, join(ROOT, "dist", "zot"))];

let spawnedAt = 0n;
const arrivals: number[] = [];
const sinceSpawn = (): number => Number(process.hrtime.bigint() - spawnedAt) / 1e6;
const model = startScriptedModel(() => arrivals.push(sinceSpawn()));
/** One bash call (`echo ok`), then the answer. */
const PROMPT = "steps=2 tool=bash go";

const scratch = mkdtempSync(join(tmpdir(), "zot-first-request-"));
const envs = new Map(binaries.map((b, i) => [b, buildEnv({ PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: scratch }, scratch, i)]));
const guard = withGuard ? compileGuard(scratch) : null;
type Variant = { name: string; args: (bin: string) => string[]; forget?: true };
const run = (bin: string) => printArgs(bin, model.base, PROMPT, guard);
const variants: Variant[] = [
  { name: "sandboxed", args: run },
  { name: "sandboxed, not remembered", args: run, forget: true },
  { name: "--sandbox off", args: (bin) => unsandboxed(run(bin)) },
];

type Row = { first: number[]; second: number[]; exit: number[] };
const rows = new Map<string, Row>();
console.log(`# first-request: ${RUNS} runs${guard ? ", with the guard extension" : ""}; ${machine()}`);
// Round -1 warms the page cache and the home's model cache, and remembers the verdict.
for (let round = -1; round < RUNS; round++) {
  for (const bin of binaries) {
    const env = envs.get(bin)!;
    const home = env.ZOT_HOME!;
    for (const v of variants) {
      // Put back after the run, so the next remembered run finds it.
      const verdict = join(home, "sandbox-verdict.json");
      const kept = v.forget && existsSync(verdict) ? readFileSync(verdict) : null;
      if (v.forget) rmSync(verdict, { force: true });
      arrivals.length = 0;
      spawnedAt = process.hrtime.bigint();
      const p = Bun.spawn(v.args(bin), { env, stdout: "ignore", stderr: "ignore" });
      const code = await p.exited;
      const exit = sinceSpawn();
      if (kept) writeFileSync(verdict, kept, { mode: 0o600 });
      if (code !== 0 || arrivals.length !== 2) throw new Error(`${bin} (${v.name}) exited with ${code} after ${arrivals.length} requests`);
      if (round < 0) continue;
      const key = `${bin} | ${v.name}`;
      const row = rows.get(key) ?? { first: [], second: [], exit: [] };
      row.first.push(arrivals[0]!);
      row.second.push(arrivals[1]!);
      row.exit.push(exit);
      rows.set(key, row);
    }
  }
}
console.log("| binary | variant | first request | second request | exit |\n|---|---|---|---|---|");
for (const [key, r] of rows) {
  const [bin, variant] = key.split(" | ");
  console.log(`| ${bin} | ${variant} | ${median(r.first).toFixed(1)} | ${median(r.second).toFixed(1)} | ${median(r.exit).toFixed(1)} |`);
}
console.log(`# ${machine()}`);
model.stop();
rmSync(scratch, { recursive: true, force: true });
