// TUI cost of streaming one long answer (issue 26 §1): the real ChatLog receives a 50 000-token
// Markdown reply (paragraphs, lists and code blocks, ~4 characters a token) in deltas of 5 tokens,
// and draws one frame after each as the app does at the bottom (the running line sum the scroll
// follows, and the 120×45 window); the median frame cost
// early in the answer and late in it should be the same. In process, so only the TUI's own work
// is measured; the whole program's CPU per second is what the frames add up to at 100 tokens/s.
// Run: bun bench/tui-stream.ts
import { loadavg } from "node:os";
import { createStyle, dark } from "../src/tui/terminal/theme.ts";
import { ChatLog } from "../src/tui/components/chat-log.ts";

const COLS = 120;
const ROWS = 45;
const TOKENS = 50_000;
const PER_DELTA = 5;

function delta(i: number): string {
  const words = Array.from({ length: PER_DELTA }, (_, k) => `word${(i * PER_DELTA + k) % 97}`).join(" ");
  if (i % 400 === 399) return `${words}\n\n\`\`\`ts\nconst x = ${i};\nreturn x * 2;\n\`\`\`\n\n`;
  if (i % 40 === 39) return `${words}.\n\n- a list item ${i}\n- another **item**\n\n`;
  return `${words} `;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const t = new ChatLog({ style: createStyle(dark, "truecolor") });
t.addUser("write a long answer");
const deltas = TOKENS / PER_DELTA;
const times: number[] = [];
for (let i = 0; i < deltas; i++) {
  const start = Bun.nanoseconds();
  t.appendAssistant(delta(i));
  t.grown(COLS);
  t.window(COLS, ROWS, 0);
  times.push((Bun.nanoseconds() - start) / 1e6);
}
const slice = (from: number, to: number) => median(times.slice(Math.floor(from * deltas), Math.floor(to * deltas)));
const early = slice(0.02, 0.12);
const late = slice(0.88, 0.98);
console.log(
  `TUI streaming of a ${TOKENS}-token answer, ${COLS}×${ROWS}, a frame per ${PER_DELTA}-token delta — load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log(
  `median frame: first tenth ${early.toFixed(3)} ms, last tenth ${late.toFixed(3)} ms (×${(late / early).toFixed(2)}); at 100 tokens/s: ${((early * 100) / PER_DELTA).toFixed(1)} → ${((late * 100) / PER_DELTA).toFixed(1)} ms of CPU per second`,
);
