// Extension host benchmarks (issue 2 §10). Run: bun bench/ext-host.ts  (prints a Markdown section).
//  1. Loading 10 extensions in parallel vs the slowest one alone (target ≤ 1.3×).
//  2. Intercept round trip through a minimal Bun extension vs a raw pipe echo, same run (target < 150 µs).
//  3. Line reader throughput: 1 GiB of 1 KiB frames and one 64 MiB frame (≥ 300 MB/s); 2× input ≤ 2.2× time
//     (2 GiB vs 1 GiB of frames; single frames within the 64 MiB limit: 64 vs 32 MiB, two 64 MiB vs one).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { Host } from "../src/ext/host.ts";
import { LineReader } from "../src/ext/connection/lines.ts";

const root = mkdtempSync(join(tmpdir(), "zot-bench-"));
const home = join(root, "home");
mkdirSync(home);
// NaN for an empty sample, which the report then shows.
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const fmt = (n: number, d = 1) => n.toFixed(d);
const out: string[] = [];

function extension(name: string, exec: string, script: string, file: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), script);
  chmodSync(join(dir, file), 0o755);
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, version: "1.0.0", exec, args: exec === "bun" ? [`./${file}`] : [] }));
  return dir;
}

async function loadMs(dirs: string[]): Promise<number> {
  const host = new Host();
  const t = performance.now();
  const report = await host.load({ extPaths: dirs, noExt: true, cwd: root, home, info: { zotVersion: "bench", provider: "", model: "", cwd: root } });
  const ms = performance.now() - t;
  if (report.errors.length) throw new Error(report.errors.map((e) => e.message).join("; "));
  await host.shutdown();
  return ms;
}

// ---------------------------------------------------------------- 1. parallel load
async function parallelLoad(): Promise<void> {
  const shExt = (name: string, delay: string) =>
    extension(
      name,
      "./run.sh",
      `#!/bin/sh\nsleep ${delay}\necho '{"type":"hello","name":"${name}","version":"1"}'\necho '{"type":"register_command","name":"${name}","description":"x"}'\necho '{"type":"ready"}'\nwhile read -r _; do :; done\n`,
      "run.sh",
    );
  const bunExt = (name: string, delayMs = 0) =>
    extension(
      name,
      "bun",
      `await Bun.sleep(${delayMs});\nconsole.log(JSON.stringify({type:"hello",name:"${name}",version:"1"}));\nconsole.log(JSON.stringify({type:"register_command",name:"${name}",description:"x"}));\nconsole.log(JSON.stringify({type:"ready"}));\nfor await (const line of console) { if (line.includes('"shutdown"')) break; }\n`,
      "ext.ts",
    );
  const slow = shExt("slowest", "0.3");
  const fast = Array.from({ length: 9 }, (_, i) => shExt(`fast${i}`, "0.05"));
  const bunDirs = Array.from({ length: 10 }, (_, i) => bunExt(`bun${i}`));
  const bunSlow = bunExt("bunslow", 300);
  const runs = 7;
  const alone: number[] = [];
  const ten: number[] = [];
  const bunOne: number[] = [];
  const bunTen: number[] = [];
  const bunSlowOne: number[] = [];
  const bunSlowTen: number[] = [];
  for (let i = 0; i < runs; i++) {
    alone.push(await loadMs([slow]));
    ten.push(await loadMs([slow, ...fast]));
    bunOne.push(await loadMs([bunDirs[0]!]));
    bunTen.push(await loadMs(bunDirs));
    bunSlowOne.push(await loadMs([bunSlow]));
    bunSlowTen.push(await loadMs([bunSlow, ...bunDirs.slice(1)]));
  }
  out.push("### Parallel load (median of 7 runs)", "", "| case | median ms | ratio |", "|---|---|---|");
  out.push(`| slowest alone (sh, sleeps 300 ms before hello) | ${fmt(median(alone))} | 1.00 |`);
  out.push(`| slowest + 9 others (sh, 50 ms each) in parallel | ${fmt(median(ten))} | **${fmt(median(ten) / median(alone), 2)}×** |`);
  out.push(`| slowest alone (Bun, sleeps 300 ms before hello) | ${fmt(median(bunSlowOne))} | 1.00 |`);
  out.push(`| slowest + 9 other Bun extensions in parallel | ${fmt(median(bunSlowTen))} | **${fmt(median(bunSlowTen) / median(bunSlowOne), 2)}×** |`);
  out.push(`| one Bun extension alone | ${fmt(median(bunOne))} | 1.00 |`);
  out.push(
    `| ten Bun extensions in parallel (CPU-bound start-up on ${cpus().length} cores) | ${fmt(median(bunTen))} | ${fmt(median(bunTen) / median(bunOne), 2)}× |`,
  );
  out.push("");
}

// ---------------------------------------------------------------- 2. intercept round trip
async function roundTrip(): Promise<void> {
  const interceptor = extension(
    "rt",
    "bun",
    `const w = (o) => process.stdout.write(JSON.stringify(o) + "\\n");
w({ type: "hello", name: "rt", version: "1" });
w({ type: "subscribe", intercept: ["turn_start"] });
w({ type: "ready" });
for await (const line of console) {
  const f = JSON.parse(line);
  if (f.type === "event_intercept") w({ type: "event_intercept_response", id: f.id });
  else if (f.type === "shutdown") break;
}
`,
    "ext.ts",
  );
  const echo = extension("echo", "bun", `for await (const line of console) process.stdout.write(line + "\\n");\n`, "ext.ts");
  const N = 5000;
  const host = new Host();
  await host.load({ extPaths: [interceptor], noExt: true, cwd: root, home, info: { zotVersion: "bench", provider: "", model: "", cwd: root } });
  const rt: number[] = [];
  for (let i = 0; i < N + 500; i++) {
    const t = performance.now();
    const r = await host.intercept({ event: "turn_start", step: i });
    const us = (performance.now() - t) * 1000;
    if (r.steps[0]?.outcome !== "allow") throw new Error("interceptor did not answer");
    if (i >= 500) rt.push(us);
  }
  await host.shutdown();

  const proc = Bun.spawn(["bun", join(echo, "ext.ts")], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  const enc = new TextEncoder();
  const raw: number[] = [];
  for (let i = 0; i < N + 500; i++) {
    const t = performance.now();
    proc.stdin.write(enc.encode(`{"type":"event_intercept","id":"${i}","event":"turn_start","step":${i}}\n`));
    proc.stdin.flush();
    await reader.read();
    const us = (performance.now() - t) * 1000;
    if (i >= 500) raw.push(us);
  }
  proc.stdin.end();
  await proc.exited;
  out.push(`### Intercept round trip (${N} round trips after 500 warm-up, median)`, "", "| path | median µs | p90 µs |", "|---|---|---|");
  const p90 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)] ?? Number.NaN;
  out.push(`| host.intercept → minimal Bun extension → back | **${fmt(median(rt))}** | ${fmt(p90(rt))} |`);
  out.push(`| raw pipe echo (Bun.spawn, Bun echo child) | ${fmt(median(raw))} | ${fmt(p90(raw))} |`);
  out.push(`| ratio host / raw | ${fmt(median(rt) / median(raw), 2)}× | |`, "");
}

// ---------------------------------------------------------------- 3. line reader
function framesRun(totalBytes: number): number {
  const lineLen = 1000; // not a divisor of the chunk size, so lines straddle chunks
  const line = `{"type":"notify","level":"info","message":"${"x".repeat(lineLen - 46)}"}`;
  const block = new TextEncoder().encode((line + "\n").repeat(4000));
  if (block.length !== 4000 * lineLen) throw new Error(`frame size ${block.length / 4000}`);
  let lines = 0;
  const r = new LineReader({ onLine: () => lines++ });
  const t = performance.now();
  let fed = 0;
  while (fed < totalBytes) {
    for (let off = 0; off < block.length && fed < totalBytes; off += 65536) {
      const chunk = block.subarray(off, Math.min(off + 65536, block.length));
      r.push(chunk);
      fed += chunk.length;
    }
  }
  r.end();
  const ms = performance.now() - t;
  if (lines !== Math.ceil(fed / lineLen)) throw new Error(`lines ${lines}`);
  return ms;
}
/** `frames` single-line frames of `bytes` each, through a reader with the production limit (64 MiB). */
function bigRun(bytes: number, frames = 1): number {
  const chunk = new Uint8Array(65536).fill(0x61);
  let got = 0;
  const r = new LineReader({ onLine: (l) => (got += l.length) });
  const t = performance.now();
  for (let i = 0; i < frames; i++) {
    for (let fed = 0; fed < bytes; fed += chunk.length) r.push(chunk);
    r.push(Uint8Array.of(0x0a));
  }
  const ms = performance.now() - t;
  if (got !== bytes * frames) throw new Error(`lines ${got}`);
  return ms;
}
function lineReader(): void {
  const GiB = 1024 ** 3;
  const MiB = 1024 ** 2;
  // Runs of the 1× and 2× inputs alternate so both see the same machine load; each run starts from a
  // collected heap so one run's garbage is not billed to the next; the best run of each counts.
  function pair(f: (bytes: number) => number, bytes: number, n: number): [number, number] {
    f(bytes);
    let one = Infinity;
    let two = Infinity;
    for (let i = 0; i < n; i++) {
      Bun.gc(true);
      one = Math.min(one, f(bytes));
      Bun.gc(true);
      two = Math.min(two, f(2 * bytes));
    }
    return [one, two];
  }
  const [g1, g2] = pair(framesRun, GiB, 5);
  // Twice the input for single frames, within the 64 MiB line limit: one 32 MiB frame against one
  // 64 MiB frame, and one 64 MiB frame against two 64 MiB frames.
  const [h1] = pair(bigRun, 32 * MiB, 11);
  const [b1, b2] = pair((bytes) => (bytes === 64 * MiB ? bigRun(64 * MiB) : bigRun(64 * MiB, 2)), 64 * MiB, 11);
  const mbs = (bytes: number, ms: number) => fmt(bytes / 1e6 / (ms / 1000), 0);
  out.push(
    "### Line reader (split + UTF-8 decode, 64 KiB chunks; best of 5 runs for frames, 11 for single frames)",
    "",
    "| input | ms | MB/s | 2× input / 1× time |",
    "|---|---|---|---|",
  );
  out.push(`| 1 GiB of 1000-byte frames | ${fmt(g1, 0)} | **${mbs(GiB, g1)}** | |`);
  out.push(`| 2 GiB of 1000-byte frames | ${fmt(g2, 0)} | ${mbs(2 * GiB, g2)} | **${fmt(g2 / g1, 2)}×** |`);
  out.push(`| one 32 MiB frame | ${fmt(h1, 0)} | ${mbs(32 * MiB, h1)} | |`);
  out.push(`| one 64 MiB frame | ${fmt(b1, 0)} | **${mbs(64 * MiB, b1)}** | **${fmt(b1 / h1, 2)}×** (vs 32 MiB) |`);
  out.push(`| two 64 MiB frames | ${fmt(b2, 0)} | ${mbs(128 * MiB, b2)} | **${fmt(b2 / b1, 2)}×** (vs one) |`, "");
}

// `bun bench/ext-host.ts [load|intercept|lines]…` runs only the named parts.
const parts = process.argv.slice(2);
const want = (p: string) => parts.length === 0 || parts.includes(p);
if (want("load")) await parallelLoad();
if (want("intercept")) await roundTrip();
if (want("lines")) lineReader();

rmSync(root, { recursive: true, force: true });
const cpu = (await Bun.file("/proc/cpuinfo").text()).match(/model name\s*:\s*(.*)/)?.[1] ?? "unknown";
console.log(
  `## Extension host\n\nMachine: ${cpus().length} cores (nproc), ${cpu}, Bun ${Bun.version}, ${new Date().toISOString().slice(0, 10)}.\n\n${out.join("\n")}`,
);
