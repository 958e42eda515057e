// The whole program's CPU while the TUI streams one long answer (issue 26 §1): a local Anthropic-
// format server streams a Markdown reply (5 tokens a delta, paragraphs, lists and code blocks; 50 000
// tokens unless --tokens says otherwise) at RATE tokens/s to `zot` on a pseudo-terminal in tmux
// (120×40); zot's CPU time (utime + stime from /proc) is sampled every tenth of the answer. CPU per
// second should stay flat over the answer. The default rate is 1 000 tokens/s (the 100
// tokens/s takes over 8 minutes for 50 000 tokens; pass 100 for it).
// With --resume N the session is first resumed from a transcript of N messages (bench/transcript.ts,
// ~4.8 KB each): once its end is on screen, the bench waits for zot to settle (a second of CPU
// under 5 % of a core, at most a minute), prints how long that took and the idle CPU per second, and
// then streams the answer — CPU per second should not depend on the history either.
//
//   bun bench/stream-cpu.ts [rate] [binary] [--tokens N] [--resume N]   (default 1000, dist/zot)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freshBinary } from "../scripts/build-freshness.ts";
import { machine, procCpu } from "./harness.ts";
import { MARK, transcript } from "./transcript.ts";

const ROOT = resolve(import.meta.dir, "..");
const args = process.argv.slice(2);
/** The value after `--name`, taken out of `args`. */
function option(name: string): number | undefined {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} takes a positive whole number, not ${args[at + 1] ?? "nothing"}`);
  args.splice(at, 2);
  return value;
}
const TOKENS = option("--tokens") ?? 50_000;
const RESUME = option("--resume");
const RATE = Number(args[0] ?? 1000);
const zot = resolve(args[1] ?? freshBinary(ROOT, join(ROOT, "dist", "zot")));
const PER_DELTA = 5;
const DELTAS = TOKENS / PER_DELTA;

function delta(i: number): string {
  const words = Array.from({ length: PER_DELTA }, (_, k) => `word${(i * PER_DELTA + k) % 97}`).join(" ");
  if (i % 400 === 399) return `${words}\n\n\`\`\`ts\nconst x = ${i};\nreturn x * 2;\n\`\`\`\n\n`;
  if (i % 40 === 39) return `${words}.\n\n- a list item ${i}\n- another **item**\n\n`;
  return `${words} `;
}

const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
let sent = 0;
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  fetch(req) {
    if (req.method === "GET") return Response.json({ data: [] });
    const enc = new TextEncoder();
    const stream = new ReadableStream({
      async start(c) {
        c.enqueue(
          enc.encode(
            ev("message_start", {
              message: { id: "m", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], usage: { input_tokens: 10, output_tokens: 1 } },
            }) + ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
          ),
        );
        const t0 = performance.now();
        for (let i = 0; i < DELTAS; i++) {
          const due = t0 + (i * 1000 * PER_DELTA) / RATE;
          const wait = due - performance.now();
          if (wait > 1) await Bun.sleep(wait);
          c.enqueue(enc.encode(ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: delta(i) } })));
          sent = i + 1;
        }
        c.enqueue(
          enc.encode(
            ev("content_block_stop", { index: 0 }) +
              ev("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: TOKENS } }) +
              ev("message_stop", {}),
          ),
        );
        c.close();
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  },
});

const home = mkdtempSync(join(tmpdir(), "zot-bench-stream-"));
const session = `zot-stream-${process.pid}`;
const tmux = (...argv: string[]) => Bun.spawnSync(["tmux", ...argv], { stdout: "pipe", stderr: "pipe" });
const resumed = join(home, "resumed.jsonl");
if (RESUME) transcript(resumed, RESUME);
try {
  const cmd = [
    zot,
    "--provider",
    "anthropic",
    "--base-url",
    `http://127.0.0.1:${server.port}`,
    "--api-key",
    "sk-bench-key-0000",
    ...(RESUME ? ["--session", resumed] : ["--no-session"]),
    "--cwd",
    home,
  ].join(" ");
  tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", `env ZOT_HOME=${home} HOME=${home} TERM=xterm-256color ${cmd}`);
  let pid = 0;
  for (let i = 0; i < 100 && !pid; i++) {
    await Bun.sleep(100);
    const out = Bun.spawnSync(["pgrep", "-n", "-f", `${zot} --provider anthropic --base-url http://127.0.0.1:${server.port}`], { stdout: "pipe" })
      .stdout.toString()
      .trim();
    pid = Number(out.split("\n")[0] ?? 0);
  }
  if (!pid) throw new Error("zot did not start in tmux");
  const cpu = () => procCpu(`/proc/${pid}/stat`).own;
  if (RESUME) {
    const t0 = performance.now();
    while (!tmux("capture-pane", "-p", "-t", session).stdout.toString().includes(MARK)) {
      if (performance.now() - t0 > 120_000) throw new Error(`the resumed session's end was not on screen after 2 minutes`);
      await Bun.sleep(50);
    }
    const shown = performance.now();
    const atShown = cpu();
    let idle = Number.POSITIVE_INFINITY;
    while (performance.now() - shown < 60_000) {
      const [c0, w0] = [cpu(), performance.now()];
      await Bun.sleep(1000);
      idle = ((cpu() - c0) / (performance.now() - w0)) * 1000;
      if (idle < 50) break;
    }
    console.log(
      `resumed ${RESUME} messages: end on screen after ${((shown - t0) / 1000).toFixed(1)} s, settled ${((performance.now() - shown) / 1000).toFixed(1)} s later (${cpu() - atShown} ms of CPU meanwhile); idle CPU then ${idle.toFixed(0)} ms/s`,
    );
  } else await Bun.sleep(1500);
  tmux("send-keys", "-t", session, "write a long answer", "Enter");
  const marks: { at: number; cpu: number; sent: number }[] = [];
  while (sent === 0) await Bun.sleep(5);
  marks.push({ at: performance.now(), cpu: cpu(), sent });
  for (let part = 1; part <= 10; part++) {
    while (sent < (DELTAS * part) / 10) await Bun.sleep(5);
    marks.push({ at: performance.now(), cpu: cpu(), sent });
  }
  console.log(`streaming CPU of the zot process — ${machine()}; ${TOKENS} tokens at ${RATE} tokens/s`);
  const rates = marks.slice(1).map((m, i) => ((m.cpu - marks[i]!.cpu) / (m.at - marks[i]!.at)) * 1000);
  console.log(`CPU ms per second, each tenth of the answer: ${rates.map((r) => r.toFixed(0)).join(" ")}`);
  console.log(
    `first tenth ${rates[0]!.toFixed(0)} ms/s, last tenth ${rates[rates.length - 1]!.toFixed(0)} ms/s (×${(rates[rates.length - 1]! / rates[0]!).toFixed(2)})`,
  );
} finally {
  tmux("kill-session", "-t", session);
  server.stop(true);
  rmSync(home, { recursive: true, force: true });
}
