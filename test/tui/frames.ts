// Deterministic frames for renderer tests in tmux: scrolls both ways, edits, styles and wide
// characters. The last frame's last line is DONE so a test knows when drawing finished.
export const FRAME_ROWS = 20;
export const FRAME_COLS = 60;

export function frames(): string[][] {
  const pool = Array.from({ length: 200 }, (_, i) => (i % 5 === 0 ? "" : `\x1b[3${i % 8}mline ${i}\x1b[0m ${i % 3 === 0 ? "日本語 👍" : "text"}`));
  let seed = 11;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  let offset = 50;
  const out: string[][] = [];
  for (let step = 0; step < 120; step++) {
    const op = rand(4);
    if (op === 0) offset += 1 + rand(3);
    else if (op === 1) offset -= 1 + rand(8);
    offset = Math.max(0, Math.min(pool.length - FRAME_ROWS, offset));
    const f = pool.slice(offset, offset + FRAME_ROWS - 2);
    if (op === 2) f[rand(f.length)] = `edited ${step}`;
    f.push(`status ${step}`, step === 119 ? "DONE" : "> typing");
    out.push(f);
  }
  return out;
}
