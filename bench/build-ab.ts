// A/B comparison of zot builds (e.g. before and after a change of build flags or of start-up code):
// every scenario of every binary runs in turn, run by run, so all of them see the same machine load,
// which on a shared machine matters more than any single figure. Wall time is spawn to exit
// (including `/usr/bin/time`, the same for all), CPU time the user + system of every process the
// run started (a cgroup per run, see harness.ts `sample`; steadier than wall time under load), peak RSS is GNU time's `%M`; a plain `bun -e 0`
// start runs in the same rounds as the baseline.
//
//   bun bench/build-ab.ts [runs] [scenario,…] binary…
//   e.g. bun bench/build-ab.ts 31 print,bare,version /tmp/zot-before dist/zot
//
// Scenarios: version (`zot --version`), print (`zot -p`, the model calls `bash` once, one sh
// tool_call interceptor), bare (the same without extension), loop1 / loop50 (the model calls `read`
// once / 50 times), echo / bash50 (issue 9's scenarios of bench/zot-vs-go.ts: `bash` once with the
// C guard, `bash` 50 times), bash50-chat / bash50-responses (bash50 on OpenAI's Chat Completions /
// Responses wire), bash500 (`bash` 500 times); each but version also as <name>-off, with `--sandbox off`.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildEnv, compileGuard, cpuMethod, machine, median, printArgs, sample, type BenchWire, unsandboxed } from "./harness.ts";
import { startScriptedModel } from "./scripted-model.ts";
import { freshBinary } from "../scripts/build-freshness.ts";

const ROOT = resolve(import.meta.dir, "..");
const RUNS = Number(process.argv[2] ?? 21);
const WHICH = (process.argv[3] ?? "print,bare,version").split(",");
const BINARIES = process.argv.slice(4).map((b) => resolve(b));
if (BINARIES.length === 0) BINARIES.push(freshBinary(ROOT, join(ROOT, "dist", "zot")));

const home = mkdtempSync(join(tmpdir(), "zot-ab-"));
writeFileSync(join(home, "small.txt"), "a small file\n");
const env: Record<string, string> = { PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`, HOME: home, ZOT_HOME: home };

const model = startScriptedModel();
const guard = compileGuard(home);
const shguard = join(ROOT, "test", "fixtures", "agent", "shguard");
const print = (prompt: string, ext: string | null, wire: BenchWire = "anthropic") => printArgs("", model.base, prompt, ext, 1000, wire).slice(1);
const SCENARIOS: Record<string, string[]> = {
  version: ["--version"],
  print: print("steps=2 tool=bash run it", shguard),
  bare: print("steps=2 tool=bash run it", null),
  loop1: print("steps=2 tool=read loop", null),
  loop50: print("steps=51 tool=read loop", null),
  echo: print("steps=2 tool=bash run it", guard),
  bash50: print("steps=51 tool=bash loop", null),
  "bash50-chat": print("steps=51 tool=bash loop", null, "chat"),
  "bash50-responses": print("steps=51 tool=bash loop", null, "responses"),
  // A long loop: what a step costs as the history grows.
  bash500: print("steps=501 tool=bash loop", null),
};
// Each scenario with `--sandbox off` too ("bash50-chat-off"): zot's own process only, without the command server.
for (const [name, args] of Object.entries(SCENARIOS)) if (name !== "version") SCENARIOS[`${name}-off`] = unsandboxed(args);
for (const w of WHICH) if (!(w in SCENARIOS)) throw new Error(`unknown scenario ${w} (${Object.keys(SCENARIOS).join(", ")})`);

try {
  // Private copies, so a rebuild of dist/zot during the run can't change what is measured.
  const copies = BINARIES.map((b, i) => {
    const copy = join(home, `zot-${i}`);
    copyFileSync(b, copy);
    return copy;
  });
  const rows: { label: string; cmd: string[]; env: Record<string, string> }[] = [{ label: "bun -e 0", cmd: [process.execPath, "-e", "0"], env }];
  copies.forEach((c, i) => {
    const own = buildEnv(env, home, i);
    for (const w of WHICH) rows.push({ label: `${w} · ${BINARIES[i]}`, cmd: [c, ...SCENARIOS[w]!], env: own });
  });
  {
    const ms = rows.map(() => [] as number[]);
    const rss = rows.map(() => [] as number[]);
    const cpu = rows.map(() => [] as number[]);
    for (const r of rows) await sample(r.cmd, r.env, home);
    for (let run = 0; run < RUNS; run++) {
      for (const [i, r] of rows.entries()) {
        const s = await sample(r.cmd, r.env, home);
        ms[i]!.push(s.ms);
        rss[i]!.push(s.mib);
        cpu[i]!.push(s.cpuMs);
      }
    }
    const base = median(ms[0]!);
    console.log(`machine: ${machine()}; ${RUNS} interleaved runs; medians (wall time includes /usr/bin/time); ${cpuMethod()}`);
    for (const [i, r] of rows.entries()) {
      const m = median(ms[i]!);
      console.log(
        `${m.toFixed(1).padStart(7)} ms  ${(m / base).toFixed(2)}× bun -e 0   CPU ${median(cpu[i]!).toFixed(1).padStart(6)} ms   peak RSS ${median(rss[i]!).toFixed(1)} MiB (max ${Math.max(...rss[i]!).toFixed(1)})   ${r.label}`,
      );
    }
  }
} finally {
  model.stop();
  rmSync(home, { recursive: true, force: true });
}
