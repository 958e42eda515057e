// The two scenarios of issue 9 §5, against the built binary and the Go zot's recorded figures:
//   echo    one prompt, the model calls `bash` (`echo ok`) once, a guard extension intercepts tool_call
//   loop50  one prompt, the model calls `bash` 50 times, no extension
// Whole-process wall time (spawn to exit, minus `/usr/bin/time /bin/true`) and peak RSS (GNU time's
// `%M`), interleaved run by run with Go-free baselines: `bun -e 0`, a compiled Bun hello world (the
// floor of any `bun build --compile` binary) and, per scenario, the Bun floor (bench/bun-floor: the
// runtime facilities the scenario uses, without zot's logic, built with zot's flags; the memory zot
// cannot go below on this Bun). The guard is bench/guard-c compiled with `cc`, so the extension's
// own start-up (~1 ms) doesn't hide zot's.
//
// CPU time (user + system of every process the run started, the sandbox's command server included:
// a cgroup per run, see harness.ts `sample`; the header says when it falls back to rusage, which
// misses the command server) is printed beside: on a loaded machine it is the steadier figure.
//
// Side by side: with ZOT_GO_BIN set to a Go zot binary (built outside this repository from its
// public source, as shared/reference/zot-go.md describes), the Go zot runs the same two scenarios in the same
// interleaved rounds, and the ratios are taken against it. Without it they are taken against the
// Go figures recorded on 2026-12-01 (GO below).
//
// Before and after in one run: with ZOT_BEFORE_BIN set to an earlier zot binary, it runs the two
// scenarios, sandboxed and `--sandbox off`, in the same interleaved rounds ("before: …"), so a change is measured
// against the same load.
//
// A loaded machine on demand: ZOT_BENCH_LOAD=N keeps N busy processes (`sh` spinning) running for
// the whole measurement, so "loaded" is the same load from one run to the next.
//
//   [ZOT_GO_BIN=/path/to/go/zot] [ZOT_BEFORE_BIN=/path/to/old/zot] [ZOT_BENCH_LOAD=N] bun bench/zot-vs-go.ts [runs] [binary]   (default 10 runs; dist/zot)
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  buildEnv,
  compileFloor,
  compileGuard,
  compileHello,
  cpuMethod,
  goZotBinary,
  machine,
  median,
  printArgs,
  sample,
  type Sample,
  unsandboxed,
} from "./harness.ts";
import { startScriptedModel } from "./scripted-model.ts";
import { freshBinary } from "../scripts/build-freshness.ts";

/** The Go zot on the issue's machine (AMD EPYC, 2 cores, 2026-12-01): wall ms, peak MiB. */
const GO = { echo: { ms: 37, mib: 15.9 }, loop50: { ms: 183, mib: 17.7 } } as const;
/** Issue 9 §5's targets: wall time as a fraction of Go's, peak RSS in MiB. */
const TARGET = { echo: { ratio: 0.85, mib: 36 }, loop50: { ratio: 0.9, mib: 38 } } as const;

const ROOT = resolve(import.meta.dir, "..");
const RUNS = Number(process.argv[2] ?? 10);

const home = mkdtempSync(join(tmpdir(), "zot-vs-go-"));
const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ZOT_HOME: home };
const beforeEnv = buildEnv(env, home, "before");
const envOf = (name: string): Record<string, string> => (name.startsWith("before:") ? beforeEnv : env);
// A private copy, so a rebuild of dist/zot during the run can't change what is measured.
const ZOT = join(home, "zot");
copyFileSync(resolve(process.argv[3] ?? freshBinary(ROOT, join(ROOT, "dist", "zot"))), ZOT);
const guard = compileGuard(home);
const hello = compileHello(home);
const floor = compileFloor(home);

const goBin = goZotBinary();
const BEFORE = join(home, "zot-before");
if (process.env.ZOT_BEFORE_BIN) copyFileSync(resolve(process.env.ZOT_BEFORE_BIN), BEFORE);
const model = startScriptedModel();
const SCENARIOS: Record<string, string[]> = {
  "bun -e 0": [process.execPath, "-e", "0"],
  "compiled Bun hello world": [hello],
  "Bun floor of echo": floor(model.base, 2, true),
  "Bun floor of loop50": floor(model.base, 51, false),
  echo: printArgs(ZOT, model.base, "steps=2 tool=bash run it", guard),
  loop50: printArgs(ZOT, model.base, "steps=51 tool=bash loop", null),
  // The Go zot has no sandbox; zot's (on by default) runs every command in its confined command server.
  "echo, --sandbox off": unsandboxed(printArgs(ZOT, model.base, "steps=2 tool=bash run it", guard)),
  "loop50, --sandbox off": unsandboxed(printArgs(ZOT, model.base, "steps=51 tool=bash loop", null)),
  ...(process.env.ZOT_BEFORE_BIN
    ? {
        "before: echo": printArgs(BEFORE, model.base, "steps=2 tool=bash run it", guard),
        "before: loop50": printArgs(BEFORE, model.base, "steps=51 tool=bash loop", null),
        "before: echo, --sandbox off": unsandboxed(printArgs(BEFORE, model.base, "steps=2 tool=bash run it", guard)),
        "before: loop50, --sandbox off": unsandboxed(printArgs(BEFORE, model.base, "steps=51 tool=bash loop", null)),
      }
    : {}),
  ...(goBin
    ? { "Go echo": printArgs(goBin, model.base, "steps=2 tool=bash run it", guard), "Go loop50": printArgs(goBin, model.base, "steps=51 tool=bash loop", null) }
    : {}),
};
const names = Object.keys(SCENARIOS);
const spinners = Array.from({ length: Number(process.env.ZOT_BENCH_LOAD ?? 0) }, () =>
  Bun.spawn(["/bin/sh", "-c", "while :; do :; done"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }),
);

try {
  {
    const results: Record<string, Sample[]> = Object.fromEntries(names.map((n) => [n, [] as Sample[]]));
    const wrapper: number[] = [];
    // Warm-up: the page cache, the server, and the model-discovery cache in $ZOT_HOME.
    for (const n of names) await sample(SCENARIOS[n]!, envOf(n), home);
    for (let i = 0; i < RUNS; i++) {
      wrapper.push((await sample(["/bin/true"], env, home)).ms);
      for (const n of names) results[n]!.push(await sample(SCENARIOS[n]!, envOf(n), home));
    }
    const w = median(wrapper);
    const load = spinners.length > 0 ? `; ${spinners.length} busy process${spinners.length === 1 ? "" : "es"} beside (ZOT_BENCH_LOAD)` : "";
    console.log(`machine: ${machine()}${load}; ${RUNS} interleaved runs; medians (minus /usr/bin/time, ${w.toFixed(1)} ms); ${cpuMethod()}`);
    console.log(goBin ? `Go zot: ${goBin}, in the same rounds` : "Go zot: the figures recorded on 2026-12-01 (set ZOT_GO_BIN to run one side by side)");
    const wall = (n: string) => median(results[n]!.map((s) => s.ms)) - w;
    const cpuOf = (n: string) => median(results[n]!.map((s) => s.cpuMs));
    for (const n of names) {
      const ms = wall(n);
      const max = Math.max(...results[n]!.map((s) => s.mib));
      const cpu = cpuOf(n);
      let line = `${ms.toFixed(1).padStart(7)} ms  CPU ${cpu.toFixed(1).padStart(6)} ms  peak RSS ${median(results[n]!.map((s) => s.mib)).toFixed(1)} MiB (max ${max.toFixed(1)})   ${n}`;
      const scenario = n.startsWith("echo") ? "echo" : n.startsWith("loop50") ? "loop50" : null;
      if (scenario) {
        const ratio = ms / (goBin ? wall(`Go ${scenario}`) : GO[scenario].ms);
        const ok = (b: boolean) => (b ? "✓" : "✗");
        line += `   ${ratio.toFixed(2)}× Go (target ≤ ${TARGET[scenario].ratio}× ${ok(ratio <= TARGET[scenario].ratio)})${goBin ? `, CPU ${(cpu / cpuOf(`Go ${scenario}`)).toFixed(2)}× Go` : ""}, memory target ≤ ${TARGET[scenario].mib} MiB ${ok(max <= TARGET[scenario].mib)}`;
      }
      console.log(line);
    }
  }
} finally {
  for (const s of spinners) s.kill("SIGKILL");
  model.stop();
  rmSync(home, { recursive: true, force: true });
}
