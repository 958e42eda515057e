// Tab after a command name completes its argument: `/theme l` → `/theme light`, `/model cl` →
// the matching models, `/reload-ext <name>`. One match is filled in; several extend to what they
// share and are listed.

/** Candidates per built-in command name. */
export type ArgSources = Readonly<Record<string, () => readonly string[]>>;

export type Completion = { text: string; candidates: string[] };

function commonPrefix(words: readonly string[]): string {
  let p = words[0] ?? "";
  for (const w of words) while (!w.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/** For `/name partial`: the completed text and the candidates that matched; null when there is nothing to complete. */
export function completeArg(text: string, sources: ArgSources): Completion | null {
  const m = /^\/(\S+) +(\S*)$/.exec(text);
  if (!m) return null;
  const name = m[1]!.toLowerCase();
  const typed = m[2]!;
  const source = sources[name];
  if (!source) return null;
  const lower = typed.toLowerCase();
  // `provider/model` candidates also match on the model part alone.
  const matches = source().filter((c) => {
    const l = c.toLowerCase();
    return l.startsWith(lower) || l.slice(l.indexOf("/") + 1).startsWith(lower);
  });
  if (matches.length === 0) return null;
  if (matches.length === 1) return { text: `/${m[1]} ${matches[0]}`, candidates: matches };
  const shared = commonPrefix(matches);
  return { text: shared.toLowerCase().startsWith(lower) && shared.length > typed.length ? `/${m[1]} ${shared}` : text, candidates: matches };
}
