// What a tool step costs as the history grows (issue 26 §1): one `zot -p` run whose model
// (bench/scripted-model.ts) calls `bash` N times, `--sandbox off` (the command server's share is
// bench/sandbox.ts's), read in windows of W steps: each window's wall time, zot's own CPU (its
// process: every thread), its main thread's, and the shells' (reaped by zot, so its children's CPU)
// per step, and the scripted model's own handler time (it reads the whole history every step, as a
// real server would; it is this process, not zot). The last line is how the last window compares
// with the first: a per-step cost that holds stays near 1×. With ZOT_GO_BIN set (a Go zot built
// outside this repository) the Go zot runs the same loop; with ZOT_BEFORE_BIN an earlier zot does.
// Linux only: it reads /proc.
//
//   [ZOT_GO_BIN=…] [ZOT_BEFORE_BIN=…] bun bench/step-cpu.ts [steps] [window] [binary]   (default 2000, 250, dist/zot)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freshBinary } from "../scripts/build-freshness.ts";
import { goZotBinary, machine, printArgs, procCpu, procTickMs, unsandboxed } from "./harness.ts";
import { startScriptedModel } from "./scripted-model.ts";

const ROOT = resolve(import.meta.dir, "..");
const STEPS = Number(process.argv[2] ?? 2000);
const WINDOW = Number(process.argv[3] ?? 250);
type Mark = { at: number; wall: number; zot: number; main: number; shells: number; model: number };
type Window = { from: number; to: number; wall: number; zot: number; main: number; shells: number; model: number };

async function run(label: string, argv: string[], isZot: boolean): Promise<Window[]> {
  const home = mkdtempSync(join(tmpdir(), "zot-bench-step-cpu-"));
  const marks: Mark[] = [];
  let pid = 0;
  let requests = 0;
  const model = startScriptedModel(() => {
    requests++;
    if (pid === 0 || (requests - 1) % WINDOW !== 0) return;
    try {
      const whole = procCpu(`/proc/${pid}/stat`);
      const main = isZot ? procCpu(`/proc/${pid}/task/${pid}/stat`).own : Number.NaN;
      marks.push({ at: requests - 1, wall: performance.now(), zot: whole.own, main, shells: whole.children, model: Number(model.serverNs()) / 1e6 });
    } catch {
      // The process is gone: the run is over.
    }
  });
  const args = printArgs(argv[0]!, model.base, `steps=${STEPS + 1} tool=bash loop`, null, STEPS + 10);
  const cmd = isZot ? unsandboxed(args) : args;
  const proc = Bun.spawn(cmd, {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ZOT_HOME: home },
    cwd: home,
    stdout: "ignore",
    stderr: "ignore",
  });
  pid = proc.pid;
  const code = await proc.exited;
  model.stop();
  rmSync(home, { recursive: true, force: true });
  if (code !== 0) throw new Error(`${label} exited with ${code}`);
  const windows: Window[] = [];
  for (let i = 1; i < marks.length; i++) {
    const a = marks[i - 1]!;
    const b = marks[i]!;
    const n = b.at - a.at;
    windows.push({
      from: a.at,
      to: b.at,
      wall: (b.wall - a.wall) / n,
      zot: (b.zot - a.zot) / n,
      main: (b.main - a.main) / n,
      shells: (b.shells - a.shells) / n,
      model: (b.model - a.model) / n,
    });
  }
  return windows;
}

function print(label: string, windows: Window[]): void {
  console.log(`\n${label}: ms per step`);
  console.log("steps          wall   own CPU   main thread   shells   model server");
  const f = (x: number) => (Number.isNaN(x) ? "     -" : x.toFixed(2).padStart(6));
  for (const w of windows) console.log(`${`${w.from}–${w.to}`.padEnd(11)} ${f(w.wall)}   ${f(w.zot)}     ${f(w.main)}     ${f(w.shells)}   ${f(w.model)}`);
  const first = windows[0];
  const last = windows.at(-1);
  if (first && last)
    console.log(
      `last window ÷ first: wall ${(last.wall / first.wall).toFixed(2)}×, own CPU ${(last.zot / first.zot).toFixed(2)}×` +
        (Number.isNaN(first.main) ? "" : `, main thread ${(last.main / first.main).toFixed(2)}×`),
    );
}

const zot = resolve(process.argv[4] ?? freshBinary(ROOT, join(ROOT, "dist", "zot")));
console.log(`machine: ${machine()}; ${STEPS} bash steps, windows of ${WINDOW}; CPU from /proc (ticks of ${procTickMs()} ms)`);
print(`zot (${zot})`, await run("zot", [zot], true));
if (process.env.ZOT_BEFORE_BIN) print(`before (${process.env.ZOT_BEFORE_BIN})`, await run("before", [resolve(process.env.ZOT_BEFORE_BIN)], true));
const go = goZotBinary();
if (go) print(`Go zot (${go})`, await run("Go zot", [go], false));
