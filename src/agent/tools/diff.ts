// Line-based unified diff (Myers' O(ND) algorithm) for the edit tool's result. Edits touch a few
// places in a file, so the common prefix and suffix are trimmed first and the search usually ends
// after a handful of rounds; a pathological diff gives up on minimality rather than on memory.

/** `firstLine`: how many lines of the file come before the texts given (their hunks are numbered from there). */
export type DiffOptions = { context?: number; oldLabel?: string; newLabel?: string; firstLine?: number };

type Op = { kind: " " | "-" | "+"; line: string };

/** Beyond this many differing lines the diff is reported as one replaced block instead of searched. */
const MAX_EDIT_DISTANCE = 2000;

export function unifiedDiff(oldText: string, newText: string, opts: DiffOptions = {}): string {
  const context = opts.context ?? 3;
  // Only the lines between the common head and tail (and their context) are split and compared:
  // a line array and an op per line of a 100 MB file cost several times the file.
  const { start, oldEnd, newEnd, skipped } = changedRegion(oldText, newText, context);
  const ops = diffLines(splitLines(oldText.slice(start, oldEnd)), splitLines(newText.slice(start, newEnd)));
  const hunks = toHunks(ops, context, skipped + (opts.firstLine ?? 0));
  if (hunks.length === 0) return "";
  return [`--- ${opts.oldLabel ?? "a"}`, `+++ ${opts.newLabel ?? "b"}`, ...hunks].join("\n");
}

/** Characters compared at once while looking for the common head and tail. */
const CHUNK = 4096;

/**
 * Where the texts differ, widened to whole lines and `context` more lines each side: both are the
 * same before `start` (which holds `skipped` lines) and after `oldEnd` / `newEnd`.
 */
function changedRegion(a: string, b: string, context: number): { start: number; oldEnd: number; newEnd: number; skipped: number } {
  const shorter = Math.min(a.length, b.length);
  let head = 0;
  while (head + CHUNK <= shorter && a.slice(head, head + CHUNK) === b.slice(head, head + CHUNK)) head += CHUNK;
  while (head < shorter && a.charCodeAt(head) === b.charCodeAt(head)) head++;
  // (lastIndexOf reads a negative position as 0, so the first line is its own case.)
  const lineOf = (at: number) => (at <= 0 ? 0 : a.lastIndexOf("\n", at - 1) + 1);
  const changed = lineOf(head);
  const room = shorter - changed;
  let tail = 0;
  while (tail + CHUNK <= room && a.slice(a.length - tail - CHUNK, a.length - tail) === b.slice(b.length - tail - CHUNK, b.length - tail)) tail += CHUNK;
  while (tail < room && a.charCodeAt(a.length - tail - 1) === b.charCodeAt(b.length - tail - 1)) tail++;
  // The tail is kept from the first line that starts inside it (in both texts, as it is common to them).
  let oldEnd = a.length - tail;
  const lineStart = (t: string, at: number) => at === changed || t.charCodeAt(at - 1) === 10;
  if (!(lineStart(a, oldEnd) && lineStart(b, b.length - tail))) {
    const nl = a.indexOf("\n", oldEnd);
    oldEnd = nl === -1 || nl >= a.length ? a.length : nl + 1;
  }
  let start = changed;
  for (let i = 0; i < context && start > 0; i++) start = lineOf(start - 1);
  for (let i = 0; i < context && oldEnd < a.length; i++) {
    const nl = a.indexOf("\n", oldEnd);
    oldEnd = nl === -1 ? a.length : nl + 1;
  }
  return { start, oldEnd, newEnd: b.length - (a.length - oldEnd), skipped: lineBreaks(a, start) };
}

function lineBreaks(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function diffLines(a: string[], b: string[]): Op[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const midA = a.slice(pre, a.length - suf);
  const midB = b.slice(pre, b.length - suf);
  const mid = myers(midA, midB) ?? [...midA.map((line): Op => ({ kind: "-", line })), ...midB.map((line): Op => ({ kind: "+", line }))];
  return [...a.slice(0, pre).map((line): Op => ({ kind: " ", line })), ...mid, ...a.slice(a.length - suf).map((line): Op => ({ kind: " ", line }))];
}

/** Shortest edit script, or null when it would need more than MAX_EDIT_DISTANCE edits. */
function myers(a: string[], b: string[]): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  if (max === 0) return [];
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds v[-d-1 .. d+1] as it was when round d started: all that backtracking reads.
  const trace: Int32Array[] = [];
  // k stays within -d-1..d+1 and v spans -max-1..max+1 around off, so every read is in bounds.
  const at = (i: number): number => v[off + i]!;
  for (let d = 0; d <= Math.min(max, MAX_EDIT_DISTANCE); d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? at(k + 1) : at(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace);
    }
  }
  return null;
}

function backtrack(a: string[], b: string[], trace: Int32Array[]): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (const [d, snap] of [...trace.entries()].reverse()) {
    // snap holds v[-d-1 .. d+1], and k, prevK stay in that range.
    const at = (k: number): number => snap[k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    // x ≤ a.length and y ≤ b.length throughout, and both stay above 0 where a line is read.
    while (x > prevX && y > prevY) {
      ops.push({ kind: " ", line: a[x - 1]! });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: "+", line: b[y - 1]! });
      else ops.push({ kind: "-", line: a[x - 1]! });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/** `skipped`: the lines before the first op, the same in both texts. */
function toHunks(ops: Op[], context: number, skipped: number): string[] {
  const out: string[] = [];
  const changes: number[] = [];
  ops.forEach((op, i) => {
    if (op.kind !== " ") changes.push(i);
  });
  // Changes closer than two contexts apart share one hunk: group them first.
  const groups: { first: number; last: number }[] = [];
  for (const c of changes) {
    const g = groups.at(-1);
    if (g && c - g.last - 1 <= 2 * context) g.last = c;
    else groups.push({ first: c, last: c });
  }
  // The lines before each hunk, counted once over the whole diff: hunks come in order.
  let oldBefore = skipped;
  let newBefore = skipped;
  let counted = 0;
  for (const { first, last } of groups) {
    const start = Math.max(0, first - context);
    const end = Math.min(ops.length, last + context + 1);
    for (; counted < start; counted++) {
      const op = ops[counted]!;
      if (op.kind !== "+") oldBefore++;
      if (op.kind !== "-") newBefore++;
    }
    let oldLen = 0;
    let newLen = 0;
    const body: string[] = [];
    for (const op of ops.slice(start, end)) {
      if (op.kind !== "+") oldLen++;
      if (op.kind !== "-") newLen++;
      body.push(op.kind + op.line);
    }
    const range = (before: number, len: number): string => `${len === 0 ? before : before + 1},${len}`;
    out.push(`@@ -${range(oldBefore, oldLen)} +${range(newBefore, newLen)} @@`, ...body);
  }
  return out;
}
