// Fuzzy matching for pickers and the slash popup: a query matches when its characters appear in
// order (case-insensitive). Prefix and contiguous matches score higher so the obvious hit comes first.

/** Score of `query` against `text`, or null when it does not match. Higher is better. */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.toLowerCase();
  const t = text.toLowerCase();
  if (q === "") return 0;
  if (t.startsWith(q)) return 1000 - t.length;
  const at = t.indexOf(q);
  if (at >= 0) return 500 - at - t.length / 100;
  let score = 0;
  let ti = 0;
  let last = -2;
  for (const ch of q) {
    const found = t.indexOf(ch, ti);
    if (found < 0) return null;
    score += found === last + 1 ? 5 : 1;
    // A match right after a separator reads as the start of a word.
    if (found === 0 || "/-_. ".includes(t[found - 1] ?? "")) score += 3;
    last = found;
    ti = found + 1;
  }
  return score - t.length / 100;
}

/** Items matching `query`, best first; ties keep their original order. */
export function fuzzyFilter<T>(items: readonly T[], query: string, key: (item: T) => string): T[] {
  const scored: { item: T; score: number; index: number }[] = [];
  items.forEach((item, index) => {
    const score = fuzzyScore(query, key(item));
    if (score !== null) scored.push({ item, score, index });
  });
  if (query === "") return scored.map((s) => s.item);
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.map((s) => s.item);
}
