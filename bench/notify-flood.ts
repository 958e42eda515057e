// Key echo latency during a notify flood: `dist/zot` runs on a pseudo-terminal (Python's `pty`,
// stdlib) with the flood fixture extension; after `/flood` has started (the merged note is on
// screen), one capital letter at a time is typed and timed from the write to the first output
// holding everything typed so far (the editor line; the flood's own output has no capitals). Run: `bun bench/notify-flood.ts
// [keys]` after `bun run build`. Prints the median, p90 and max in ms.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const KEYS = Number(process.argv[2] ?? 30);

const PTY = `
import os, pty, sys, time, select, struct, fcntl, termios, signal
keys = int(sys.argv[1])
argv = sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(argv[0], argv)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
def read_until(marker, timeout):
    buf = b""
    end = time.time() + timeout
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                chunk = os.read(fd, 1 << 20)
            except OSError:
                return None
            buf += chunk
            if marker in buf:
                return buf
    return None
read_until(b"Ask anything", 20)
os.write(fd, b"/flood\\r")
read_until(b"more notes", 20)
letters = b"QWXZJKVY"
out = []
typed = b""
for i in range(keys):
    c = letters[i % len(letters):i % len(letters) + 1]
    typed += c
    t0 = time.perf_counter()
    os.write(fd, c)
    if read_until(typed, 10) is None:
        out.append("timeout")
        continue
    out.append("%.2f" % ((time.perf_counter() - t0) * 1000))
    time.sleep(0.05)
os.write(fd, b"\\x15/stop\\r")
time.sleep(0.3)
os.write(fd, b"\\x03")
time.sleep(0.05)
os.write(fd, b"\\x03")
time.sleep(0.5)
try:
    os.kill(pid, signal.SIGKILL)
except ProcessLookupError:
    pass
os.waitpid(pid, 0)
print(" ".join(out))
`;

const home = mkdtempSync(join(tmpdir(), "zot-bench-flood-"));
try {
  const p = Bun.spawnSync(
    ["python3", "-c", PTY, String(KEYS), join(ROOT, "dist", "zot"), "--provider", "mock", "--no-session", "-e", join(ROOT, "test", "fixtures", "tui", "flood")],
    { env: { ...process.env, ZOT_HOME: home, TERM: "xterm-256color" }, stdout: "pipe", stderr: "inherit" },
  );
  const times = p.stdout.toString().trim().split(/\s+/);
  const ms = times
    .filter((t) => t !== "timeout")
    .map(Number)
    .sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(1);
  console.log(`${ms.length} keys echoed (${times.length - ms.length} timed out): median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${ms.at(-1)!.toFixed(1)} ms`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
