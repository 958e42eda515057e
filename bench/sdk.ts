// SDK round-trip benchmark: a TypeScript SDK extension (under Bun from source, and under Node from the
// bundle) and a Python SDK extension each answer 10 000 tool_call intercepts over real pipes.
// Round trip: one intercept at a time, send → reply (median, p99). Throughput: all 10 000 written at
// once, frames/s until the last reply. Usage: bun bench/sdk.ts [count]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { bundle } from "../sdk/typescript/build.ts";

const COUNT = Number(process.argv[2] ?? 10_000);
const repo = resolve(import.meta.dir, "..");

const TS_EXT = (sdk: string) => `
const { Extension } = await import(${JSON.stringify(sdk)});
const ext = new Extension("bench", "1.0.0");
ext.interceptToolCall(({ toolArgs }) => (toolArgs.n % 2 ? undefined : { modifiedArgs: { n: toolArgs.n + 1 } }));
ext.run();
`;
const PY_EXT = `
import sys
sys.path.insert(0, ${JSON.stringify(join(repo, "sdk/python"))})
from zot_ext import Decision, Extension
ext = Extension("bench", "1.0.0")

@ext.intercept_tool_call
def check(call):
    return None if call.tool_args["n"] % 2 else Decision(modified_args={"n": call.tool_args["n"] + 1})

ext.run()
`;

type Client = { send(line: string): void; next(): Promise<string>; stop(): Promise<void> };

function start(cmd: string[]): Client {
  const proc = Bun.spawn(cmd, { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const lines: string[] = [];
  const waiting: { wake: (() => void) | null } = { wake: null };
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of proc.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl = buffer.indexOf("\n");
      while (nl >= 0) {
        lines.push(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf("\n");
      }
      waiting.wake?.();
    }
  })();
  let read = 0;
  return {
    send(line) {
      proc.stdin.write(line + "\n");
      proc.stdin.flush();
    },
    async next() {
      while (read >= lines.length) await new Promise<void>((r) => (waiting.wake = r));
      return lines[read++]!;
    },
    async stop() {
      proc.stdin.write(JSON.stringify({ type: "shutdown" }) + "\n");
      proc.stdin.end();
      await proc.exited;
    },
  };
}

const frame = (i: number) =>
  JSON.stringify({ type: "event_intercept", id: `i${i}`, event: "tool_call", tool_id: `t${i}`, tool_name: "bash", tool_args: { n: i } });

async function measure(label: string, cmd: string[]) {
  const c = start(cmd);
  await c.next(); // hello
  c.send(
    JSON.stringify({
      type: "hello_ack",
      protocol_version: 1,
      zot_version: "bench",
      provider: "",
      model: "",
      cwd: "/",
      extension_dir: "/",
      data_dir: "/",
      capabilities: [],
    }),
  );
  while (JSON.parse(await c.next()).type !== "ready");
  for (let i = 0; i < 200; i++) {
    c.send(frame(i));
    await c.next();
  }
  const rtt: number[] = [];
  for (let i = 0; i < COUNT; i++) {
    const t0 = Bun.nanoseconds();
    c.send(frame(i));
    const reply = await c.next();
    rtt.push((Bun.nanoseconds() - t0) / 1000);
    if (!reply.includes(`"i${i}"`)) throw new Error(`${label}: reply out of order: ${reply}`);
  }
  const t0 = Bun.nanoseconds();
  const burst = Array.from({ length: COUNT }, (_, i) => frame(i)).join("\n");
  c.send(burst);
  for (let i = 0; i < COUNT; i++) await c.next();
  const seconds = (Bun.nanoseconds() - t0) / 1e9;
  await c.stop();
  rtt.sort((a, b) => a - b);
  const at = (q: number): number => rtt[Math.min(rtt.length - 1, Math.floor(q * rtt.length))] ?? Number.NaN;
  return { label, median: at(0.5), p99: at(0.99), perSecond: COUNT / seconds };
}

const dir = mkdtempSync(join(tmpdir(), "zot-bench-sdk-"));
try {
  const failure = await bundle(join(dir, "sdk"));
  if (failure) throw new Error(failure);
  writeFileSync(join(dir, "bun-ext.mjs"), TS_EXT(join(repo, "sdk/typescript/src/index.ts")));
  writeFileSync(join(dir, "node-ext.mjs"), TS_EXT(join(dir, "sdk/index.js")));
  writeFileSync(join(dir, "ext.py"), PY_EXT);
  const results = [
    await measure("TypeScript SDK (Bun, from source)", [process.execPath, join(dir, "bun-ext.mjs")]),
    await measure("TypeScript SDK (Node, bundle)", ["node", join(dir, "node-ext.mjs")]),
    await measure("Python SDK", ["python3", join(dir, "ext.py")]),
  ];
  const cpu = cpus()[0]?.model ?? "unknown";
  console.log(`SDK intercept round trips: ${COUNT} per extension; ${cpus().length} CPUs, ${cpu}; bun ${Bun.version}`);
  console.log("| extension | median round trip | p99 | burst frames/s |");
  console.log("|---|---|---|---|");
  for (const r of results)
    console.log(`| ${r.label} | ${r.median.toFixed(0)} µs | ${r.p99.toFixed(0)} µs | ${Math.round(r.perSecond).toLocaleString("en-US")} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
