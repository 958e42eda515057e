// OAuth scope strings (RFC 6749 §3.3: space-separated, order irrelevant): the union a step-up login
// asks for, in the order first seen, each scope once.

export function joinScopes(...scopes: (string | null | undefined)[]): string {
  return [...new Set(scopes.flatMap((s) => (s ?? "").split(/\s+/)).filter((s) => s !== ""))].join(" ");
}
