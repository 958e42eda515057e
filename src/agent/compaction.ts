// Condensing a long conversation: the older part is summarised by the model into one message and
// the most recent turns are kept verbatim. Runs on /compact, after a turn that leaves the context
// at or above the threshold (85 % of the window by default, `auto_compact` in config.json), and
// when the provider answers that the request is too long. Cancelling leaves the history untouched.
import type { AssistantMessage, Message, Usage } from "./messages.ts";
import type { Provider, ProviderEvent } from "./provider.ts";

export const DEFAULT_AUTO_COMPACT_PERCENT = 85;

/** User turns kept verbatim after the summary, when there is that much history to spare. */
const KEEP_TURNS = 2;

export const COMPACT_INSTRUCTION =
  "Summarise the conversation so far for your own later use: the user's goals, decisions made, files and commands involved, what was done, and what is still open. Be specific and complete but concise; this summary will replace the conversation.";

/** Provider answers that mean "the request does not fit the context window". */
const OVERFLOW =
  /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|input is too long|request too large|exceeds? the (?:model'?s? )?(?:context|maximum)|HTTP 413|\b413\b/i;

export function isContextOverflow(error: string | undefined): boolean {
  return error !== undefined && OVERFLOW.test(error);
}

/**
 * Where the verbatim tail starts: at the start of the last KEEP_TURNS user turns (a user prompt,
 * never a tool result, so calls and their results stay together), leaving at least one earlier
 * message to summarise; 0 keeps nothing when the history is one turn.
 */
export function keptFrom(history: readonly Message[]): number {
  const starts: number[] = [];
  history.forEach((m, i) => {
    if (m.role === "user") starts.push(i);
  });
  for (let keep = Math.min(KEEP_TURNS, starts.length - 1); keep > 0; keep--) {
    const at = starts[starts.length - keep]!;
    if (at > 0) return at;
  }
  return history.length;
}

export type Summary = { ok: true; summary: string; usage: Usage } | { ok: false; error: string; usage?: Usage };

/** `onRetry` hears of failed attempts the provider retries, so a countdown can show. */
export async function summarise(
  provider: Provider,
  model: string,
  system: string,
  messages: readonly Message[],
  signal: AbortSignal,
  onRetry?: (ev: Extract<ProviderEvent, { type: "retry" }>) => void,
): Promise<Summary> {
  const request = {
    model,
    system,
    messages: [...messages, { role: "user" as const, content: [{ type: "text" as const, text: COMPACT_INSTRUCTION }], ts: Date.now() }],
    tools: [],
  };
  let final: AssistantMessage | null = null;
  for await (const ev of provider.stream(request, signal)) {
    if (ev.type === "done") final = ev.message;
    else if (ev.type === "retry") onRetry?.(ev);
  }
  if (signal.aborted) return { ok: false, error: "cancelled", ...(final ? { usage: final.usage } : {}) };
  if (!final) return { ok: false, error: "the model stream ended without a summary" };
  if (final.stop === "error" || final.stop === "aborted") return { ok: false, error: final.error ?? final.stop, usage: final.usage };
  const summary = final.content
    .map((p) => (p.type === "text" ? p.text : ""))
    .join("")
    .trim();
  if (summary === "") return { ok: false, error: "the model returned an empty summary", usage: final.usage };
  return { ok: true, summary, usage: final.usage };
}
