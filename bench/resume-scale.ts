// How resuming scales with the length of the transcript (issue 26 §1): transcripts of 100, 1 000
// and 10 000 messages (~4.8 KB each, prompts, replies, bash calls and their output as a coding
// session leaves them) in a temporary $ZOT_HOME, then
//   -c -p       `zot -c -p` answering at once: CPU time and peak RSS of the whole resume
//   step        the same with one bash call before the answer, minus the above: one further step
//   first frame `zot -c` on a pseudo-terminal until the last message of the history is on screen:
//               wall time, and the CPU time and peak RSS of zot at that moment (/proc)
// against the scripted model (bench/scripted-model.ts), so the figures are zot's own cost. The
// transcript is copied afresh before every run (resuming appends to it). Prints the growth order
// (the exponent k of cost ∝ messages^k) from 1 000 to 10 000 messages. With ZOT_GO_BIN set
// (a Go zot built outside this repository), the Go zot resumes the same transcripts in the same rounds; its
// first frame is timed in the first round only (it takes about a minute at 10 000 messages).
// Run: [ZOT_GO_BIN=…] bun bench/resume-scale.ts [dist/zot] [rounds]
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { sessionDir } from "../src/platform/home.ts";
import { freshBinary } from "../scripts/build-freshness.ts";
import { goZotBinary, machine, median, sample } from "./harness.ts";
import { startScriptedModel } from "./scripted-model.ts";
import { MARK, transcript } from "./transcript.ts";

const ROOT = resolve(import.meta.dir, "..");
const zot = resolve(process.argv[2] ?? freshBinary(ROOT, join(ROOT, "dist", "zot")));
const rounds = Number(process.argv[3] ?? 5);
const SIZES = [100, 1_000, 10_000];
const goBin = goZotBinary();

// Spawns argv on a 120×40 pty; when the marker appears, prints ms since fork, zot's CPU ms
// (utime + stime from /proc) and its peak RSS in KiB (VmHWM), then kills it.
const PTY_TIMER = `
import os, pty, sys, time, select, struct, fcntl, termios, signal
marker = sys.argv[1].encode()
argv = sys.argv[2:]
tick = os.sysconf("SC_CLK_TCK")
t0 = time.perf_counter()
pid, fd = pty.fork()
if pid == 0:
    os.execv(argv[0], argv)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
buf = b""
result = "timeout"
deadline = time.time() + 150
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.5)
    if not r:
        continue
    try:
        chunk = os.read(fd, 1 << 20)
    except OSError:
        break
    if not chunk:
        break
    buf = buf[-4096:] + chunk
    if marker in buf:
        ms = (time.perf_counter() - t0) * 1000
        stat = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
        cpu = (int(stat[11]) + int(stat[12])) * 1000 / tick
        hwm = [l for l in open("/proc/%d/status" % pid) if l.startswith("VmHWM")][0].split()[1]
        result = "%.1f %.0f %s" % (ms, cpu, hwm)
        break
os.kill(pid, signal.SIGKILL)
os.waitpid(pid, 0)
print(result)
`;

type Figures = { cpu: number; mib: number; stepCpu: number; stepMib: number; frameMs: number; frameCpu: number; frameMib: number };
type Row = { size: number; mb: number; zot: Figures; go: Figures | null };

/** Medians of the runs of one agent at one size. */
class Runs {
  cpu: number[] = [];
  mib: number[] = [];
  stepCpu: number[] = [];
  stepMib: number[] = [];
  frame: [number, number, number][] = [];
  figures(): Figures {
    return {
      cpu: median(this.cpu),
      mib: median(this.mib),
      stepCpu: median(this.stepCpu),
      stepMib: median(this.stepMib),
      frameMs: median(this.frame.map((f) => f[0])),
      frameCpu: median(this.frame.map((f) => f[1])),
      frameMib: median(this.frame.map((f) => f[2])),
    };
  }
}

const model = startScriptedModel();
const root = mkdtempSync(join(tmpdir(), "zot-bench-resume-"));
const rows: Row[] = [];
try {
  console.log(`resume scale — ${machine()}; ${rounds} rounds, medians`);
  for (const size of SIZES) {
    const home = join(root, `home-${size}`);
    const cwd = join(root, `project-${size}`);
    mkdirSync(cwd, { recursive: true });
    const dir = sessionDir(home, cwd);
    mkdirSync(dir, { recursive: true });
    const master = join(root, `master-${size}.jsonl`);
    transcript(master, size);
    const live = join(dir, "20260101-120000-00000000.jsonl");
    const env = { ...process.env, ZOT_HOME: home, HOME: root, TERM: "xterm-256color", COLORFGBG: "15;0" } as Record<string, string>;
    const args = ["--provider", "anthropic", "--base-url", model.base, "--api-key", "sk-bench-key-0000", "--cwd", cwd];
    const fresh = () => copyFileSync(master, live);
    const agents = goBin ? ([zot, goBin] as const) : ([zot] as const);
    const runs = new Map<string, Runs>(agents.map((a) => [a, new Runs()]));
    const print = (bin: string, prompt: string) => [bin, "-c", "-p", ...args, "--max-steps", "10", prompt];
    fresh();
    await sample(print(zot, "steps=1 hi"), env, root);
    for (let i = 0; i < rounds; i++) {
      for (const bin of agents) {
        const r = runs.get(bin)!;
        fresh();
        const a = await sample(print(bin, "steps=1 hi"), env, root);
        fresh();
        const b = await sample(print(bin, "steps=2 tool=bash run it"), env, root);
        r.cpu.push(a.cpuMs);
        r.mib.push(a.mib);
        r.stepCpu.push(b.cpuMs - a.cpuMs);
        r.stepMib.push(b.mib - a.mib);
        if (bin === goBin && i > 0) continue;
        fresh();
        const p = Bun.spawnSync(["python3", "-c", PTY_TIMER, MARK, bin, "-c", ...args], { cwd, env, stdout: "pipe", stderr: "pipe" });
        const out = p.stdout.toString().trim().split(" ").map(Number);
        if (out.length !== 3 || out.some((n) => !Number.isFinite(n)))
          throw new Error(`no first frame from ${bin} with ${size} messages (${p.stdout.toString().trim()}): ${p.stderr.toString()}`);
        r.frame.push([out[0]!, out[1]!, out[2]! / 1024]);
      }
    }
    rows.push({ size, mb: statSync(master).size / 1e6, zot: runs.get(zot)!.figures(), go: goBin ? runs.get(goBin)!.figures() : null });
  }
} finally {
  model.stop();
  rmSync(root, { recursive: true, force: true });
}

console.log("agent | messages |    MB | -c -p CPU ms | MiB | step CPU ms | step MiB | first frame ms | CPU ms | MiB");
for (const r of rows) {
  const c = (n: number, w: number) => n.toFixed(0).padStart(w);
  for (const [agent, f] of [
    ["zot", r.zot],
    ["Go", r.go],
  ] as const) {
    if (!f) continue;
    console.log(
      `${agent.padStart(5)} | ${String(r.size).padStart(8)} | ${r.mb.toFixed(1).padStart(5)} | ${c(f.cpu, 12)} | ${c(f.mib, 3)} | ${c(f.stepCpu, 11)} | ${c(f.stepMib, 8)} | ${c(f.frameMs, 14)} | ${c(f.frameCpu, 6)} | ${c(f.frameMib, 3)}`,
    );
  }
}
const a = rows[rows.length - 2]!;
const b = rows[rows.length - 1]!;
const k = (x: number, y: number) => (Math.log(Math.max(y, 1) / Math.max(x, 1)) / Math.log(b.size / a.size)).toFixed(2);
for (const [agent, x, y] of [
  ["zot", a.zot, b.zot],
  ["Go", a.go, b.go],
] as const) {
  if (!x || !y) continue;
  console.log(
    `${agent} growth order ${a.size} → ${b.size} messages (cost ∝ n^k): -c -p CPU k=${k(x.cpu, y.cpu)}, MiB k=${k(x.mib, y.mib)}, step CPU k=${k(x.stepCpu, y.stepCpu)}, first frame k=${k(x.frameMs, y.frameMs)}`,
  );
}
