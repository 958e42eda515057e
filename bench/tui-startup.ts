// TUI startup: time from spawning `dist/zot` on a pseudo-terminal to the first frame that shows
// the interactive prompt, with 4 extensions loaded (--ext). Run: `bun bench/tui-startup.ts [runs]
// [binary…]` (default: dist/zot; several binaries are measured interleaved, run by run, for A/B
// comparisons of builds). Needs `bun run build` first. The pty is Python's `pty` module (stdlib),
// so no dependency. A plain `bun -e 0` start is timed in the same runs as the baseline.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const RUNS = Number(process.argv[2] ?? 15);
const BINARIES = process.argv.length > 3 ? process.argv.slice(3).map((b) => resolve(b)) : [freshBinary(ROOT, join(ROOT, "dist", "zot"))];

// Spawns argv on a pty sized 100x30, returns ms from fork to the first output containing the
// marker, then sends ctrl+c twice and reaps the child.
const PTY_TIMER = `
import os, pty, sys, time, select, struct, fcntl, termios, signal
marker = sys.argv[1].encode()
argv = sys.argv[2:]
t0 = time.perf_counter()
pid, fd = pty.fork()
if pid == 0:
    os.execv(argv[0], argv)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
buf = b""
elapsed = None
deadline = time.time() + 20
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.5)
    if not r:
        continue
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    buf += chunk
    if elapsed is None and marker in buf:
        elapsed = (time.perf_counter() - t0) * 1000
        os.write(fd, b"\\x03")
        time.sleep(0.05)
        os.write(fd, b"\\x03")
        break
end = time.time() + 5
while time.time() < end:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            if not os.read(fd, 65536):
                break
        except OSError:
            break
try:
    os.kill(pid, signal.SIGKILL)
except ProcessLookupError:
    pass
os.waitpid(pid, 0)
print("%.2f" % elapsed if elapsed is not None else "timeout")
`;

// A protocol extension in plain sh: as quick to start as a compiled one, so the figure measures
// zot, not an interpreter.
const shExtension = (name: string) => `#!/bin/sh
printf '{"type":"hello","name":"${name}","version":"1.0.0","capabilities":["commands"]}\\n'
while IFS= read -r line; do
  case "$line" in
    *'"hello_ack"'*) printf '{"type":"register_command","name":"${name}-cmd","description":"bench"}\\n{"type":"ready"}\\n' ;;
    *'"shutdown"'*) printf '{"type":"shutdown_ack"}\\n'; exit 0 ;;
  esac
done
`;

const pyExtension = (name: string) => `#!/usr/bin/env python3
import json, sys
print(json.dumps({"type": "hello", "name": "${name}", "version": "1.0.0"}), flush=True)
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello_ack":
        print(json.dumps({"type": "register_command", "name": "${name}-cmd", "description": "bench"}), flush=True)
        print(json.dumps({"type": "ready"}), flush=True)
    elif m["type"] == "shutdown":
        print(json.dumps({"type": "shutdown_ack"}), flush=True)
        break
`;

function makeExtensions(dir: string, kind: "sh" | "py"): string[] {
  return [1, 2, 3, 4].map((i) => {
    const name = `bench-${kind}-${i}`;
    const ext = join(dir, name);
    mkdirSync(ext, { recursive: true });
    const file = kind === "sh" ? "ext.sh" : "ext.py";
    writeFileSync(join(ext, file), kind === "sh" ? shExtension(name) : pyExtension(name));
    chmodSync(join(ext, file), 0o755);
    writeFileSync(join(ext, "extension.json"), JSON.stringify({ name, version: "1.0.0", exec: `./${file}` }));
    return ext;
  });
}

function once(zot: string, dir: string, exts: string[]): number {
  const home = mkdtempSync(join(dir, "home-"));
  const argv = [zot, "--provider", "mock", "--no-session", ...exts.flatMap((e) => ["-e", e])];
  const p = Bun.spawnSync(["python3", "-c", PTY_TIMER, "Ask anything", ...argv], {
    cwd: dir,
    env: { ...process.env, ZOT_HOME: home, TERM: "xterm-256color", COLORFGBG: "15;0" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = p.stdout.toString().trim();
  const ms = Number(out);
  if (!Number.isFinite(ms)) throw new Error(`no prompt frame (${out}): ${p.stderr.toString()}`);
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Fork to exit of `bun -e 0`, the same way (through the pty timer, which also forks and execs). */
function baseline(): number {
  const p = Bun.spawnSync(["python3", "-c", BASELINE_TIMER, process.execPath, "-e", "0"], { stdout: "pipe", stderr: "pipe" });
  return Number(p.stdout.toString().trim());
}
const BASELINE_TIMER = `
import os, sys, time
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
os.waitpid(pid, 0)
print("%.2f" % ((time.perf_counter() - t0) * 1000))
`;
import { freshBinary } from "../scripts/build-freshness.ts";

const dir = mkdtempSync(join(tmpdir(), "zot-bench-tui-"));
try {
  console.log(`machine: ${cpus().length} CPUs, ${cpus()[0]?.model ?? "unknown CPU"}; ${RUNS} runs each (after 2 warm-up runs), binaries interleaved`);
  const base: number[] = [];
  for (const [label, exts] of [
    ["no extensions", [] as string[]],
    ["4 extensions (sh)", makeExtensions(dir, "sh")],
    ["4 extensions (python3)", makeExtensions(dir, "py")],
  ] as const) {
    for (const zot of BINARIES) {
      once(zot, dir, exts);
      once(zot, dir, exts);
    }
    const times = BINARIES.map(() => [] as number[]);
    for (let r = 0; r < RUNS; r++) {
      base.push(baseline());
      BINARIES.forEach((zot, i) => times[i]!.push(once(zot, dir, exts)));
    }
    BINARIES.forEach((zot, i) => {
      const sorted = [...times[i]!].sort((a, b) => a - b);
      const name = BINARIES.length > 1 ? `  ${zot}` : "";
      console.log(
        `${label.padEnd(24)} median ${median(times[i]!).toFixed(1)} ms (${(median(times[i]!) / median(base)).toFixed(1)}× bun -e 0)  min ${sorted[0]!.toFixed(1)}  max ${sorted[sorted.length - 1]!.toFixed(1)}${name}`,
      );
    });
  }
  console.log(`bun -e 0 (fork to exit)   median ${median(base).toFixed(1)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
