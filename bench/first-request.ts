// When a one-bash-call `zot -p` reaches the model, and when it is done: the arrival of its first
// request, of its second (after the `echo ok` command ran) and the process's exit, in ms from the
// spawn, medians of interleaved runs. Each binary runs
//   sandboxed            with the same $ZOT_HOME every run, so the boot's verdict is remembered
//                        (agent/sandbox/verdict-memory.ts) after the first
//   sandboxed, probing   with a fresh $ZOT_HOME every run: the verdict is found out at start (the
//                        command server's first frame), as on the first start after a boot
//   --sandbox off
// The model is a local Anthropic-format server that timestamps each request as it arrives and
// answers at once: the first with a bash call, the second with text.
//
//   bun bench/first-request.ts [runs] [binary…]   (default 20 runs; dist/zot)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { anthropicEvents } from "../test/helpers/provider-server.ts";
import { machine, median, printArgs } from "./harness.ts";
import { freshBinary } from "../scripts/build-freshness.ts";

const ROOT = resolve(import.meta.dir, "..");
const RUNS = Number(process.argv[2] ?? 20);
const binaries = process.argv.length > 3 ? process.argv.slice(3).map((b) => resolve(b)) : [freshBinary(ROOT, join(ROOT, "dist", "zot"))];

let spawnedAt = 0n;
const arrivals: number[] = [];
const sinceSpawn = (): number => Number(process.hrtime.bigint() - spawnedAt) / 1e6;
const sse = (body: string[]) => new Response(body.join(""), { headers: { "content-type": "text/event-stream" } });
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    if (req.method === "GET") return Response.json({ data: [{ id: "claude-sonnet-4-5", display_name: "Claude Sonnet 4.5" }] });
    arrivals.push(sinceSpawn());
    const body = (await req.json()) as { model: string; messages: unknown[] };
    return body.messages.length === 1
      ? sse(anthropicEvents({ kind: "turn", toolCalls: [{ id: "toolu_1", name: "bash", args: { command: "echo ok" } }] }, body.model))
      : sse(anthropicEvents({ kind: "turn", text: "Done." }, body.model));
  },
});
const base = `http://127.0.0.1:${server.port}`;

const scratch = mkdtempSync(join(tmpdir(), "zot-first-request-"));
const kept = join(scratch, "home");
type Variant = { name: string; args: (bin: string) => string[]; home: () => string };
const run = (bin: string) => printArgs(bin, base, "go", null);
const variants: Variant[] = [
  { name: "sandboxed", args: run, home: () => kept },
  { name: "sandboxed, probing", args: run, home: () => mkdtempSync(join(scratch, "fresh-")) },
  { name: "--sandbox off", args: (bin) => [...run(bin).slice(0, -1), "--sandbox", "off", "go"], home: () => kept },
];

type Row = { first: number[]; second: number[]; exit: number[] };
const rows = new Map<string, Row>();
console.log(`# first-request: ${RUNS} runs; ${machine()}`);
// Round -1 warms the page cache and remembers the verdict in the kept home.
for (let round = -1; round < RUNS; round++) {
  for (const bin of binaries) {
    for (const v of variants) {
      const home = v.home();
      arrivals.length = 0;
      spawnedAt = process.hrtime.bigint();
      const p = Bun.spawn(v.args(bin), { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ZOT_HOME: home }, stdout: "ignore", stderr: "ignore" });
      const code = await p.exited;
      const exit = sinceSpawn();
      if (code !== 0 || arrivals.length !== 2) throw new Error(`${bin} (${v.name}) exited with ${code} after ${arrivals.length} requests`);
      if (home !== kept) rmSync(home, { recursive: true, force: true });
      if (round < 0) continue;
      const key = `${bin} | ${v.name}`;
      const row = rows.get(key) ?? { first: [], second: [], exit: [] };
      row.first.push(arrivals[0]!);
      row.second.push(arrivals[1]!);
      row.exit.push(exit);
      rows.set(key, row);
    }
  }
}
console.log("| binary | variant | first request | second request | exit |\n|---|---|---|---|---|");
for (const [key, r] of rows) {
  const [bin, variant] = key.split(" | ");
  console.log(`| ${bin} | ${variant} | ${median(r.first).toFixed(1)} | ${median(r.second).toFixed(1)} | ${median(r.exit).toFixed(1)} |`);
}
console.log(`# ${machine()}`);
server.stop(true);
rmSync(scratch, { recursive: true, force: true });
