// Secrets (API keys, tokens) must never reach logs, transcripts or error messages. Everything that
// formats an error or a log line that might echo a request runs it through here first.

const MIN_SECRET_LENGTH = 6;

/**
 * Replaces every occurrence of each secret with a masked form. Long keys keep their first four
 * characters (enough to tell keys apart, far too few to use). Very short strings are skipped:
 * masking "abc" would shred ordinary text and such a value is no secret anyway.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  const sorted = [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET_LENGTH);
  // Longest first, so a secret that contains another is masked whole. Nothing to order in the usual
  // case of one key, and the first sort a run executes costs start-up memory.
  if (sorted.length > 1) sorted.sort((a, b) => b.length - a.length);
  for (const secret of sorted) {
    if (!out.includes(secret)) continue;
    out = out.split(secret).join(mask(secret));
  }
  return out;
}

/**
 * `value` with every string in it masked, objects and arrays copied (the same value when nothing
 * needed masking), for whatever shows structured data: the TUI's events, notes and dialogs.
 */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactSecrets(v, secrets);
    if (Array.isArray(v)) {
      const out = v.map(walk);
      return out.some((x, i) => x !== v[i]) ? out : v;
    }
    if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        out[k] = walk(x);
        if (out[k] !== x) changed = true;
      }
      return changed ? out : v;
    }
    return v;
  };
  return walk(value) as T;
}

function mask(secret: string): string {
  return secret.length >= 16 ? `${secret.slice(0, 4)}…[redacted]` : "[redacted]";
}

/**
 * How many characters at the end of `text` could be the start of a secret that the next piece of a
 * stream completes. A stream redactor holds them back: masking each piece alone would let a key
 * split across two pieces through.
 */
export function pendingSecretPrefix(text: string, secrets: readonly string[]): number {
  let longest = 0;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (let k = Math.min(secret.length - 1, text.length); k > longest; k--) {
      if (text.endsWith(secret.slice(0, k))) {
        longest = k;
        break;
      }
    }
  }
  return longest;
}
