// Secret patterns and the masking itself. Each match keeps a short recognisable prefix so the user
// can tell which key it was without the key being usable.
type Rule = { name: string; pattern: RegExp; keep: number };

const RULES: Rule[] = [
  { name: "private key", pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, keep: 0 },
  { name: "Anthropic/OpenAI key", pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, keep: 7 },
  { name: "GitHub token", pattern: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b|\bgithub_pat_[A-Za-z0-9_]{20,}/g, keep: 4 },
  { name: "AWS access key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, keep: 4 },
  { name: "Slack token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, keep: 5 },
  { name: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, keep: 4 },
  { name: "bearer token", pattern: /\b(Bearer\s+)[A-Za-z0-9._~+/-]{20,}=*/g, keep: -1 },
];

export type Masked = { text: string; found: string[] };

/** Replaces every secret in `text`; `found` names the kind of each match (empty: text unchanged). */
export function mask(text: string): Masked {
  const found: string[] = [];
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (match: string, prefix?: string) => {
      found.push(rule.name);
      if (rule.keep < 0 && typeof prefix === "string") return `${prefix}[redacted]`;
      return rule.keep ? `${match.slice(0, rule.keep)}…[redacted]` : `[redacted ${rule.name}]`;
    });
  }
  return { text: out, found };
}
