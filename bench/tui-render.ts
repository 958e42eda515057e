// TUI rendering bench: streaming into a 10 000-line transcript, keystroke-to-screen latency, and
// the cost of width measurement. Run: bun bench/tui-render.ts
// The transcript model mirrors the app's design (each entry caches its rendered lines; a delta
// re-renders only the entry it touched; the frame is the viewport's lines only), built from the
// src/tui primitives alone so the numbers isolate the rendering path.
import { loadavg } from "node:os";
import { KeyDecoder } from "../src/tui/terminal/keys.ts";
import { renderMarkdown, StreamingMarkdown } from "../src/tui/components/markdown.ts";
import { Renderer } from "../src/tui/terminal/renderer.ts";
import { createStyle, dark } from "../src/tui/terminal/theme.ts";
import { charWidth, visibleWidth } from "../src/tui/terminal/width.ts";
import { truncate, wrap } from "../src/tui/terminal/wrap.ts";

const COLS = 120;
const ROWS = 50;
const EDITOR_ROWS = 3;
const style = createStyle(dark, "truecolor");

// NaN for an empty sample, which the report then shows.
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? Number.NaN;
const fmt = (ms: number) => ms.toFixed(3);

const ANSWER = [
  "## Plan",
  "",
  "The function `parseConfig` reads **every** file under the project root and merges them; see [the docs](https://example.com/docs/config).",
  "",
  "- first, validate the *schema* before merging",
  "- then apply overrides from the environment, which may be long enough to wrap onto a second line here",
  "  - nested detail with `inline code`",
  "",
  "```ts",
  "export function parseConfig(path: string): Config {",
  '  const text = readFileSync(path, "utf8"); // may throw',
  "  return JSON.parse(text) as Config;",
  "}",
  "```",
  "",
  "> Note: 日本語 and emoji 👍 are measured correctly.",
  "",
].join("\n");

type Entry = { text: string; lines: string[] };

function renderEntry(text: string, user: boolean): string[] {
  return user ? wrap(style.fg("user", "> " + text), COLS) : renderMarkdown(text, COLS, style);
}

// Build a transcript of at least 10 000 rendered lines.
const entries: Entry[] = [];
let total = 0;
for (let n = 0; total < 10_000; n++) {
  const user = n % 2 === 0;
  const text = user ? `question ${n}: please explain the config loader and its edge cases` : ANSWER;
  const lines = renderEntry(text, user);
  entries.push({ text, lines });
  total += lines.length + 1;
}
const prefixLines: string[] = [];
for (const e of entries) prefixLines.push(...e.lines, "");

function compose(tail: string[], editor: string[]): string[] {
  const body = ROWS - EDITOR_ROWS - 1;
  const visible = tail.length >= body ? tail.slice(tail.length - body) : [...prefixLines.slice(prefixLines.length - (body - tail.length)), ...tail];
  const status = truncate(style.fg("status", `mock/model · ${total} lines · streaming`), COLS);
  return [...visible, status, ...editor];
}

const editorLines = (buf: string) => {
  const lines = wrap("> " + buf, COLS - 1).slice(-EDITOR_ROWS);
  while (lines.length < EDITOR_ROWS) lines.push("");
  return lines;
};

// --- streaming deltas ------------------------------------------------------------------------
const sink: string[] = [];
const renderer = new Renderer((s) => sink.push(s));
let streamed = "";
renderer.render(compose(renderEntry(streamed, false), editorLines("")), { row: ROWS - EDITOR_ROWS, col: 2 }, ROWS, COLS);

const words = ANSWER.split(/(?<=\s)/);
const live = new StreamingMarkdown();
const deltaTimes: number[] = [];
const deltaBytes: number[] = [];
const deltaRows: number[] = [];
const DELTAS = 2000;
for (let i = 0; i < DELTAS; i++) {
  const delta = words[i % words.length]!;
  const t0 = performance.now();
  streamed += delta;
  live.append(delta);
  const tail = live.render(COLS, style);
  const frame = compose(tail, editorLines(""));
  const bytes = renderer.render(frame, { row: ROWS - EDITOR_ROWS, col: 2 }, ROWS, COLS);
  deltaTimes.push(performance.now() - t0);
  deltaBytes.push(bytes);
  const out = sink[sink.length - 1] ?? "";
  deltaRows.push(bytes === 0 ? 0 : (out.match(/\x1b\[2K/g) ?? []).length);
}

// Full redraw of the same frames, for the byte ratio.
const fullBytes: number[] = [];
{
  const r = new Renderer(() => {});
  let s = "";
  for (let i = 0; i < 200; i++) {
    s += words[i % words.length];
    r.invalidate();
    fullBytes.push(r.render(compose(renderEntry(s, false), editorLines("")), null, ROWS, COLS));
  }
}

// --- keystroke to screen ---------------------------------------------------------------------
const keyTimes: number[] = [];
{
  const decoder = new KeyDecoder();
  const r = new Renderer(() => {});
  const tail = renderEntry(ANSWER, false);
  let buf = "";
  let cursor = 0;
  r.render(compose(tail, editorLines(buf)), { row: ROWS - EDITOR_ROWS, col: 2 }, ROWS, COLS);
  const input = "the quick brown fox jumps over the lazy dog, then edits: \x7f\x7f\x1b[D\x1b[D\x1b[1;5Cx".repeat(20);
  for (const ch of input.match(/\x1b\[[\d;]*[A-Za-z]|[\s\S]/g)!) {
    const t0 = performance.now();
    for (const k of decoder.feed(ch)) {
      if (k.name === "rune" && !k.ctrl && k.text) {
        buf = buf.slice(0, cursor) + k.text + buf.slice(cursor);
        cursor += k.text.length;
      } else if (k.name === "backspace" && cursor > 0) {
        buf = buf.slice(0, cursor - 1) + buf.slice(cursor);
        cursor--;
      } else if (k.name === "left") cursor = Math.max(0, cursor - 1);
      else if (k.name === "right") cursor = Math.min(buf.length, cursor + (k.ctrl ? 5 : 1));
    }
    const lines = editorLines(buf);
    const col = Math.min(COLS - 1, visibleWidth("> " + buf.slice(0, cursor)) % (COLS - 1));
    r.render(compose(tail, lines), { row: ROWS - 1, col }, ROWS, COLS);
    keyTimes.push(performance.now() - t0);
  }
}

// --- long answers: full re-render per delta vs StreamingMarkdown ------------------------------
function perDelta(render: (src: string, delta: string) => string[], chars: number): number[] {
  const times: number[] = [];
  let src = "";
  for (let i = 0; src.length < chars; i++) {
    const delta = words[i % words.length]!;
    src += delta;
    const t0 = performance.now();
    render(src, delta);
    times.push(performance.now() - t0);
  }
  return times.slice(times.length / 2);
}
const LONG = 16_000;
const fullLong = perDelta((src) => renderMarkdown(src, COLS, style), LONG);
const stream = new StreamingMarkdown();
const streamLong = perDelta((_src, delta) => {
  stream.append(delta);
  return stream.render(COLS, style);
}, LONG);

// --- width measurement -----------------------------------------------------------------------
const segmenter = new Intl.Segmenter();
function segmenterWidth(s: string): number {
  let w = 0;
  for (const { segment } of segmenter.segment(s)) {
    const cp = segment.codePointAt(0)!;
    const base = charWidth(cp);
    w += base === 1 && segment.includes("\ufe0f") ? 2 : base;
  }
  return w;
}
function nsPerCall(fn: (s: string) => number, s: string): number {
  const n = 20_000;
  let sum = 0;
  for (let i = 0; i < 1000; i++) sum += fn(s);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) sum += fn(s);
  const ns = ((performance.now() - t0) * 1e6) / n;
  if (sum < 0) console.log(sum);
  return ns;
}
const samples: [string, string][] = [
  ["ASCII, 120 chars", "x".repeat(60) + " the quick brown fox jumps over the lazy dog again and again!"],
  ["styled ASCII", style.bold("bold ") + style.fg("accent", "accent text ") + "plain text ".repeat(8)],
  ["CJK, 60 chars", "日本語のテキスト".repeat(7) + "日本語の"],
  ["emoji + ZWJ mix", "ok 👍 family 👨‍👩‍👧 flag 🇯🇵 heart ❤️ ".repeat(4)],
];
const widthRows = samples.map(([name, s]) => {
  const clean = s.replace(/\x1b\[[\d;]*m/g, "");
  return { name, ours: nsPerCall(visibleWidth, s), seg: nsPerCall(segmenterWidth, clean), agree: visibleWidth(s) === segmenterWidth(clean) };
});

// --- report ----------------------------------------------------------------------------------
const cpu = (await Bun.file("/proc/cpuinfo").text()).match(/model name\s*:\s*(.*)/)?.[1] ?? "unknown";
const cores = navigator.hardwareConcurrency;
const load = (loadavg()[0] ?? 0).toFixed(1);
const fullMedian = median(fullBytes);
const report = `## TUI rendering

\`bun bench/tui-render.ts\` · ${new Date().toISOString().slice(0, 10)} · ${cores} cores, ${cpu} · Bun ${Bun.version} · load average ${load} at the end (shared machine: max values include scheduling noise) · viewport ${COLS}×${ROWS}

Streaming one delta into a transcript of ${total} rendered lines (${entries.length} entries, each caching its lines; the streamed answer rendered with \`StreamingMarkdown\`, growing to ${streamed.length} chars), ${DELTAS} deltas:

| measure | median | p95 | max | target |
|---|---|---|---|---|
| delta → frame written (Markdown + compose + diff), ms | ${fmt(median(deltaTimes))} | ${fmt(pct(deltaTimes, 0.95))} | ${fmt(Math.max(...deltaTimes))} | < 2 ms |
| bytes written per frame | ${median(deltaBytes)} | ${pct(deltaBytes, 0.95)} | ${Math.max(...deltaBytes)} | only changed lines |
| lines rewritten per frame (of ${ROWS}) | ${median(deltaRows)} | ${pct(deltaRows, 0.95)} | ${Math.max(...deltaRows)} | |
| bytes per full redraw of the same frame | ${fullMedian} | | | |

When the answer grows past the bottom of the view, the renderer scrolls the transcript region (\`CSI top;bottom r\` + \`CSI n S\`) and writes only the new line, so a scrolling frame costs about as much as an in-place one. Diffing writes ${(fullMedian / Math.max(1, median(deltaBytes))).toFixed(1)}× fewer bytes per streamed frame than a full redraw.

Keystroke → frame written (decode + editor edit + wrap + compose + diff), ${keyTimes.length} keys: median ${fmt(median(keyTimes))} ms, p95 ${fmt(pct(keyTimes, 0.95))} ms, max ${fmt(Math.max(...keyTimes))} ms (target < 5 ms).

Markdown per delta while an answer grows from 8 000 to ${LONG} chars: \`renderMarkdown\` of the whole answer median ${fmt(median(fullLong))} ms (p95 ${fmt(pct(fullLong, 0.95))}); \`StreamingMarkdown\` (settled blocks cached) median ${fmt(median(streamLong))} ms (p95 ${fmt(pct(streamLong, 0.95))}).

\`visibleWidth\` (hand-rolled tables, ASCII fast path) against an \`Intl.Segmenter\` implementation, ns per call:

| text | visibleWidth | Intl.Segmenter | ratio | same result |
|---|---|---|---|---|
${widthRows.map((r) => `| ${r.name} | ${r.ours.toFixed(0)} | ${r.seg.toFixed(0)} | ${(r.seg / r.ours).toFixed(1)}× | ${r.agree ? "yes" : "no"} |`).join("\n")}
`;
console.log(report);
