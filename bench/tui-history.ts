// TUI cost per frame against the length of the history (issue 26 §1): the real ChatLog filled
// with 100, 1 000 and 10 000 messages, then the work one frame does as the app draws it — the
// running sum of lines the scroll position follows, the lines the layout counts back when scrolled
// up, and the visible window — for a streamed delta, a PageUp, an idle redraw, a frame scrolled to
// the top of the history (ctrl+home), and a streamed delta while the view stays there; and, once
// per fresh history (a resume), the first frame and the first PageUp after it. The per-frame cost
// should not grow with the history. Run: bun bench/tui-history.ts
import { loadavg } from "node:os";
import { createStyle, dark } from "../src/tui/terminal/theme.ts";
import { ChatLog } from "../src/tui/components/chat-log.ts";

const COLS = 120;
const ROWS = 45;
const style = createStyle(dark, "truecolor");
const REPLY = [
  "Here is what I found in `src/config.ts`: the loader reads **every** file and merges them.",
  "",
  "- first, validate the schema before merging",
  "- then apply the overrides from the environment",
  "",
  "```ts",
  "export function load(path: string): Config {",
  "  return JSON.parse(readFileSync(path, 'utf8')) as Config;",
  "}",
  "```",
].join("\n");

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A transcript of `messages` messages: prompts, replies and tool calls in the proportions of a coding session; `drawn`: after a first frame. */
function history(messages: number, drawn = true): ChatLog {
  const t = new ChatLog({ style });
  let now = 0;
  for (let i = 0; i < messages; i++) {
    if (i % 4 === 0) t.addUser(`step ${i}: look at the config loader and tell me what it does`);
    else if (i % 4 === 1) {
      t.toolCall(`c${i}`, "bash", { command: `rg -n load src | head -${i % 50}` }, undefined, now);
      t.toolResult(`c${i}`, "bash", [{ type: "text", text: "src/config.ts:12: load\n".repeat(8) }], false, 12, undefined, now);
    } else {
      t.appendAssistant(REPLY);
      t.closeStreams();
    }
    now += 10;
  }
  if (drawn) frame(t, 0);
  return t;
}

/** One frame as the app draws it (app.ts drawFrame, layout.ts): what the scroll follows, what the layout counts back, the window. */
function frame(t: ChatLog, offset: number): void {
  t.grown(COLS);
  if (offset > 0) t.reach(COLS, offset + ROWS + 1);
  t.window(COLS, ROWS, offset);
}

/** The first frame of a freshly resumed history of `size` messages, then its first PageUp (ms each, medians of 3 histories). */
function resumed(size: number): { first: number; pageUp: number } {
  const first: number[] = [];
  const pageUp: number[] = [];
  for (let k = 0; k < 3; k++) {
    const t = history(size, false);
    let start = Bun.nanoseconds();
    frame(t, 0);
    first.push((Bun.nanoseconds() - start) / 1e6);
    start = Bun.nanoseconds();
    frame(t, ROWS - 2);
    pageUp.push((Bun.nanoseconds() - start) / 1e6);
  }
  return { first: median(first), pageUp: median(pageUp) };
}

function measure(label: string, t: ChatLog, step: (i: number) => void, frames = 300): number {
  for (let i = 0; i < 20; i++) step(i);
  const times: number[] = [];
  for (let i = 0; i < frames; i++) {
    const start = Bun.nanoseconds();
    step(i);
    times.push((Bun.nanoseconds() - start) / 1e6);
  }
  void label;
  void t;
  return median(times);
}

const sizes = [100, 1_000, 10_000];
const rows: { size: number; stream: number; pageUp: number; idle: number; top: number; streamTop: number; first: number; firstPageUp: number }[] = [];
for (const size of sizes) {
  const t = history(size);
  const stream = measure("stream", t, () => {
    t.appendAssistant("more words of the answer ");
    frame(t, 0);
  });
  t.closeStreams();
  const pageUp = measure("pageup", t, (i) => frame(t, ((i % 20) + 1) * ROWS));
  const idle = measure("idle", t, () => frame(t, 0));
  const top = measure("top", t, () => frame(t, t.lineCount(COLS) - ROWS));
  // Scrolled up, the view keeps its place while the answer grows below it.
  const streamTop = measure("stream at the top", t, () => {
    t.appendAssistant("more words of the answer ");
    frame(t, t.lineCount(COLS) - ROWS);
  });
  t.closeStreams();
  const fresh = resumed(size);
  rows.push({ size, stream, pageUp, idle, top, streamTop, first: fresh.first, firstPageUp: fresh.pageUp });
}

console.log(
  `TUI frame cost by history length (${COLS}×${ROWS}, medians of 300 frames, ms) — load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log("messages | streamed delta | PageUp | idle redraw | at the top | streamed, at the top | resumed: first frame | first PageUp");
for (const r of rows)
  console.log(
    `${String(r.size).padStart(8)} | ${r.stream.toFixed(3).padStart(14)} | ${r.pageUp.toFixed(3).padStart(6)} | ${r.idle.toFixed(3).padStart(11)} | ${r.top.toFixed(3).padStart(10)} | ${r.streamTop.toFixed(3).padStart(20)} | ${r.first.toFixed(3).padStart(20)} | ${r.firstPageUp.toFixed(3).padStart(12)}`,
  );
const first = rows[0]!;
const last = rows[rows.length - 1]!;
console.log(
  `growth ${first.size} → ${last.size} messages: streamed ×${(last.stream / first.stream).toFixed(1)}, PageUp ×${(last.pageUp / first.pageUp).toFixed(1)}, idle ×${(last.idle / first.idle).toFixed(1)}, at the top ×${(last.top / first.top).toFixed(1)}, streamed at the top ×${(last.streamTop / first.streamTop).toFixed(1)}`,
);
