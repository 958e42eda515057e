// Records the profiles `bun run build` lays zot's bytecode out by (`--bytecode-order`): the functions
// each common way of starting zot runs, so they sit together at the front of the executable's
// bytecode and a run reads, decodes and keeps in memory less of it (measured: about 1.3 MiB less
// peak RSS for `zot -p`, see bench/RESULTS.md).
//
// Profiles match functions by a hash of their syntax, so they keep working as the code changes;
// functions that changed since the recording are simply laid out after the recorded ones. Record
// again after large changes: build, run this, build again.
//
//   bun run build && bun bench/record-bytecode-order.ts [binary] && bun run build
//
// Writes bench/bytecode-order/{print,interactive,doctor}.order (the order the build lists them in,
// most common first).
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startScriptedModel } from "./scripted-model.ts";

const ROOT = resolve(import.meta.dir, "..");
const OUT = join(ROOT, "bench", "bytecode-order");
const dir = mkdtempSync(join(tmpdir(), "zot-order-"));
const ZOT = join(dir, "zot");
copyFileSync(resolve(process.argv[2] ?? freshBinary(ROOT, join(ROOT, "dist", "zot"))), ZOT);
const env = { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`, ZOT_HOME: join(dir, "home"), HOME: dir };
writeFileSync(join(dir, "small.txt"), "a small file\n");

// The model asks for `bash`, then `read`, then answers: both tools and the interceptor run.
const model = startScriptedModel();

// Starts the TUI on a pty, waits for the prompt, quits with ctrl+c twice and lets zot exit by itself
// (the profile is written at exit).
const PTY = `
import os, pty, sys, time, select, struct, fcntl, termios
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
buf = b""
deadline = time.time() + 20
sent = False
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.2)
    if not r:
        continue
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    buf += chunk
    if not sent and b"Ask anything" in buf:
        sent = True
        time.sleep(0.2)
        os.write(fd, b"\\x03")
        time.sleep(0.05)
        os.write(fd, b"\\x03")
_, status = os.waitpid(pid, 0)
print("ok" if sent else "no prompt")
`;
import { freshBinary } from "../scripts/build-freshness.ts";

async function record(name: string, cmd: string[], opts: { pty?: boolean } = {}): Promise<void> {
  const file = join(dir, `${name}.order`);
  const proc = Bun.spawn(cmd, { cwd: dir, env: { ...env, BUN_BYTECODE_ORDER_OUT: file, TERM: "xterm-256color" }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const failed = code !== 0 || (opts.pty === true && !out.includes("ok"));
  if (failed) throw new Error(`${name}: ${cmd.join(" ")} exited ${code}: ${out}${err}`);
  if (!statSync(file, { throwIfNoEntry: false })?.size) throw new Error(`${name}: no profile written (was the binary built with --bytecode?)`);
  renameSync(file, join(OUT, `${name}.order`));
  chmodSync(join(OUT, `${name}.order`), 0o644);
  console.log(`recorded bench/bytecode-order/${name}.order`);
}

try {
  mkdirSync(OUT, { recursive: true });
  const shguard = join(ROOT, "test", "fixtures", "agent", "shguard");
  await record("print", [ZOT, "-p", "--provider", "anthropic", "--base-url", model.base, "--api-key", "sk-order", "--no-session", "-e", shguard, "tools=bash,read"]);
  await record("interactive", ["python3", "-c", PTY, ZOT, "--provider", "mock", "--no-session", "-e", shguard], { pty: true });
  await record("doctor", [ZOT, "ext", "doctor", "--json", "-e", join(ROOT, "examples", "extensions", "hello"), "-e", shguard]);
} finally {
  model.stop();
  rmSync(dir, { recursive: true, force: true });
}
