// What a long tool loop keeps (issue 26 §1): the runtime of print mode, in process, runs a prompt
// whose model (bench/scripted-model.ts) calls `bash` N times (50, 500, 2 000), then a full GC; the
// heap that is left, per step, and the object types that grew with N. A child process per N, so
// one run's leftovers can't count in another's. The history itself (an assistant message and a
// tool result per step, ~0.6 KB as JSON) is part of what is kept.
// Then the whole process: `zot -p` (the built binary, default sandbox) running the same loops, its
// peak RSS (GNU time) and the KiB each further step adds — with ZOT_GO_BIN set (a Go zot built outside this
// repository), the Go zot's beside it in the same rounds.
// Run: [ZOT_GO_BIN=…] bun bench/step-memory.ts [binary]   (default dist/zot)
import { heapStats } from "bun:jsc";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgv } from "../src/cli/args.ts";
import { Host } from "../src/ext/host.ts";
import { trustMode } from "../src/ext/install/trust.ts";
import { createRuntime } from "../src/runtime/setup.ts";
import { freshBinary } from "../scripts/build-freshness.ts";
import { goZotBinary, machine, median, printArgs, sample } from "./harness.ts";
import { startScriptedModel } from "./scripted-model.ts";

type Report = { steps: number; heap: number; rss: number; types: Record<string, number> };

async function child(steps: number, base: string): Promise<Report> {
  const home = mkdtempSync(join(tmpdir(), "zot-bench-steps-"));
  const prompt = `steps=${steps + 1} tool=bash loop`;
  const parsed = parseArgv([
    "-p",
    "--provider",
    "anthropic",
    "--base-url",
    base,
    "--api-key",
    "sk-bench-key-0000",
    "--no-session",
    "--no-ext",
    "--no-mcp",
    "--max-steps",
    String(steps + 10),
    prompt,
  ]);
  if (parsed.kind !== "run") throw new Error(`bad arguments: ${JSON.stringify(parsed)}`);
  const env = { ...process.env, ZOT_HOME: home } as Record<string, string>;
  const created = await createRuntime({ ...parsed.args, trust: trustMode(parsed.args.trust, env), home, cwd: home, env, interactive: false, host: new Host() });
  if (!created.ok) throw new Error(created.error);
  const outcome = await created.runtime.prompt(prompt, []);
  if (outcome.error) throw new Error(outcome.error);
  if (created.runtime.messages().length !== 2 * steps + 2) throw new Error(`${created.runtime.messages().length} messages after ${steps} steps`);
  Bun.gc(true);
  Bun.gc(true);
  const stats = heapStats();
  const report: Report = { steps, heap: stats.heapSize, rss: process.memoryUsage().rss, types: stats.objectTypeCounts };
  await created.runtime.close();
  rmSync(home, { recursive: true, force: true });
  return report;
}

if (process.argv[2] === "--child") {
  process.stdout.write(JSON.stringify(await child(Number(process.argv[3]), process.argv[4]!)));
  process.exit(0);
}

const STEPS = [50, 500, 2000];
const model = startScriptedModel();
const reports: Report[] = [];
const ROOT = resolve(import.meta.dir, "..");
const binaries: [string, string][] = [["zot", resolve(process.argv[2] ?? freshBinary(ROOT, join(ROOT, "dist", "zot")))]];
const goBin = goZotBinary();
if (goBin) binaries.push(["Go", goBin]);
/** Peak RSS in MiB per binary per step count: medians of three interleaved rounds. */
const whole = new Map<string, number[][]>(binaries.map(([name]) => [name, STEPS.map(() => [])]));
try {
  for (const steps of STEPS) {
    const p = Bun.spawn([process.execPath, import.meta.path, "--child", String(steps), model.base], { stdout: "pipe", stderr: "inherit" });
    const out = await new Response(p.stdout).text();
    if ((await p.exited) !== 0) throw new Error(`the ${steps}-step child failed`);
    reports.push(JSON.parse(out) as Report);
  }
  const home = mkdtempSync(join(tmpdir(), "zot-bench-steps-"));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ZOT_HOME: home };
  for (let round = 0; round < 3; round++)
    for (const [i, steps] of STEPS.entries())
      for (const [name, bin] of binaries) {
        const s = await sample(printArgs(bin, model.base, `steps=${steps + 1} tool=bash loop`, null, steps + 10), env, home);
        whole.get(name)![i]!.push(s.mib);
      }
  rmSync(home, { recursive: true, force: true });
} finally {
  model.stop();
}
console.log(`step memory — ${machine()}`);
console.log("steps | heap after GC MiB | RSS MiB");
for (const r of reports)
  console.log(`${String(r.steps).padStart(5)} | ${(r.heap / 2 ** 20).toFixed(1).padStart(17)} | ${(r.rss / 2 ** 20).toFixed(1).padStart(7)}`);
for (let i = 1; i < reports.length; i++) {
  const a = reports[i - 1]!;
  const b = reports[i]!;
  const per = (x: number, y: number) => ((y - x) / (b.steps - a.steps) / 1024).toFixed(1);
  console.log(`${a.steps} → ${b.steps}: heap ${per(a.heap, b.heap)} KiB/step, RSS ${per(a.rss, b.rss)} KiB/step`);
}
const first = reports[0]!;
const last = reports[reports.length - 1]!;
const grew = Object.entries(last.types)
  .map(([type, n]) => ({ type, per: (n - (first.types[type] ?? 0)) / (last.steps - first.steps) }))
  .filter((g) => g.per >= 0.5)
  .sort((x, y) => y.per - x.per)
  .slice(0, 15);
console.log(`objects kept per step (${first.steps} → ${last.steps}): ${grew.map((g) => `${g.type} ${g.per.toFixed(1)}`).join(", ")}`);
console.log("whole process, peak RSS MiB (medians of 3):");
for (const [name] of binaries) {
  const peaks = whole.get(name)!.map(median);
  const per = peaks.slice(1).map((p, i) => `${STEPS[i]} → ${STEPS[i + 1]}: ${(((p - peaks[i]!) * 1024) / (STEPS[i + 1]! - STEPS[i]!)).toFixed(1)} KiB/step`);
  console.log(`  ${name}: ${peaks.map((p, i) => `${STEPS[i]} steps ${p.toFixed(1)}`).join(", ")}; ${per.join(", ")}`);
}
