// The Bun floor of issue 9 §5's scenarios: the runtime facilities one `zot -p` run uses and nothing
// of zot's own logic. Each first use of a facility pages in Bun's machine code for it, so the peak
// RSS of this program is what any compiled Bun program doing the same job pays, before its own code
// and data: the node:fs calls a run makes on its state directory (the twelve functions an echo run
// calls, each once), node:path and node:os, Bun's stdout and stderr sinks, one regex, optionally an
// extension child with stdin and stdout pipes (one JSON line each way), then per model call a
// streamed POST read chunk by chunk and, between calls, a shell whose output comes back on a pipe.
// bench/harness.ts compiles it with zot's build flags.
//
//   floor <model base URL> <scratch dir> <model calls> <extension: 0|1>
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [base, dir, calls, withExtension] = process.argv.slice(2);
if (!base || !dir || !calls || !withExtension) {
  process.stderr.write("usage: floor <model base URL> <scratch dir> <model calls> <extension: 0|1>\n");
  process.exit(2);
}
const steps = Number(calls);
const out = Bun.stdout.writer();
const err = Bun.stderr.writer();
const decoder = new TextDecoder();

// State directory: what reading config, credentials, the model cache and extension manifests touches.
fstatSync(1);
const logs = join(dir, "logs");
mkdirSync(logs, { recursive: true });
const log = openSync(join(logs, "ext.log"), "a");
writeSync(log, "started\n");
closeSync(log);
chmodSync(join(logs, "ext.log"), 0o600);
statSync(dir).isDirectory();
existsSync(join(dir, "config.json"));
readdirSync(dir);
realpathSync(dir);
accessSync("/bin/sh", constants.X_OK);
const config = JSON.parse(readFileSync(join(dir, "floor.json"), "utf8")) as { provider: string };
tmpdir();
/^[a-z][a-z0-9-]*$/.test(config.provider);

// The extension: a child on pipes, one line each way (cat sends the line back).
const extension = withExtension === "1" ? Bun.spawn(["/bin/cat"], { stdin: "pipe", stdout: "pipe", stderr: "ignore" }) : null;
if (extension) {
  extension.stdin.write(`${JSON.stringify({ type: "hello_ack" })}\n`);
  extension.stdin.flush();
  const { value } = await extension.stdout.getReader().read();
  JSON.parse(decoder.decode(value));
}

const abort = new AbortController();
const deadline = setTimeout(() => abort.abort(), 30_000);
const request = JSON.stringify({ model: "m", max_tokens: 100, stream: true, messages: [{ role: "user", content: "steps=2 tool=bash floor" }] });
for (let i = 0; i < steps; i++) {
  const res = await fetch(`${base}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k" },
    body: request,
    signal: abort.signal,
  });
  const reader = res.body!.getReader();
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    decoder.decode(chunk.value, { stream: true });
  }
  if (i === steps - 1) break;
  const shell = Bun.spawn(["/bin/sh", "-c", 'exec 2>&1; eval "$1"', "/bin/sh", "echo ok"], { stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  err.write(await new Response(shell.stdout).text());
  await shell.exited;
}
clearTimeout(deadline);
out.write("Done.\n");
await out.flush();
await err.flush();
if (extension) {
  extension.stdin.end();
  await extension.exited;
}
process.exit(0);
