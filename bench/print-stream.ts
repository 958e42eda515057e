// `zot -p` streaming one long answer: a local Anthropic-format server sends DELTAS text deltas (as
// fast as zot reads them, in 16 KiB chunks) and zot prints the answer at the end; the figure is
// zot's CPU time for the whole run (user + system), wall time and peak RSS, medians of interleaved
// runs, for each binary given (A/B in the same rounds). What it measures is the per-event cost of
// the provider stream and of the mode's event handling, which a one-call benchmark does not show.
//
//   bun bench/print-stream.ts [runs] [deltas] [binary…]   (default 10 runs, 10 000 deltas, dist/zot)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freshBinary } from "../scripts/build-freshness.ts";
import { buildEnv, machine, median, sample, type Sample } from "./harness.ts";

const ROOT = resolve(import.meta.dir, "..");
const RUNS = Number(process.argv[2] ?? 10);
const DELTAS = Number(process.argv[3] ?? 10_000);
const given = process.argv.slice(4).map((b) => resolve(b));
const BINARIES = given.length > 0 ? given : [freshBinary(ROOT, join(ROOT, "dist", "zot"))];

const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const parts = [
  ev("message_start", {
    message: { id: "m", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], usage: { input_tokens: 10, output_tokens: 1 } },
  }),
  ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
];
for (let i = 0; i < DELTAS; i++) parts.push(ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: `word${i % 97} word${i % 13} w ` } }));
parts.push(
  ev("content_block_stop", { index: 0 }),
  ev("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: DELTAS * 5 } }),
  ev("message_stop", {}),
);
const bytes = new TextEncoder().encode(parts.join(""));
const chunks: Uint8Array[] = [];
for (let i = 0; i < bytes.length; i += 16 * 1024) chunks.push(bytes.subarray(i, i + 16 * 1024));

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  fetch(req) {
    if (req.method === "GET") return Response.json({ data: [] });
    const body = new ReadableStream({
      async start(c) {
        for (const chunk of chunks) {
          c.enqueue(chunk);
          await Bun.sleep(0);
        }
        c.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  },
});

const home = mkdtempSync(join(tmpdir(), "zot-bench-print-stream-"));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ZOT_HOME: home };
const args = (zot: string) => [
  zot,
  "-p",
  "--provider",
  "anthropic",
  "--base-url",
  `http://127.0.0.1:${server.port}`,
  "--api-key",
  "sk-bench-key-0000",
  "--no-session",
  "--sandbox",
  "off",
  "say a lot",
];
try {
  const results = BINARIES.map(() => [] as Sample[]);
  // Warm-up: the page cache and the model-discovery cache in $ZOT_HOME.
  for (const [k, b] of BINARIES.entries()) await sample(args(b), buildEnv(env, home, k), home);
  for (let i = 0; i < RUNS; i++) for (const [k, b] of BINARIES.entries()) results[k]!.push(await sample(args(b), buildEnv(env, home, k), home));
  console.log(`machine: ${machine()}; ${RUNS} interleaved runs; ${DELTAS} deltas (${(bytes.length / 1024).toFixed(0)} KiB of SSE); medians`);
  for (const [k, b] of BINARIES.entries()) {
    const r = results[k]!;
    console.log(
      `${median(r.map((s) => s.ms))
        .toFixed(1)
        .padStart(7)} ms  CPU ${median(r.map((s) => s.cpuMs))
        .toFixed(1)
        .padStart(6)} ms  peak RSS ${median(r.map((s) => s.mib)).toFixed(1)} MiB   ${b}`,
    );
  }
} finally {
  server.stop(true);
  rmSync(home, { recursive: true, force: true });
}
