// Masks known secrets (API keys, the RPC token) in everything a headless mode writes: a model that
// read a key from a file or the environment and echoes it must not put it on the terminal, in a CI
// log or in a client's records. The conversation itself is untouched — the model still sees what
// the tools returned.
import type { AgentEvent } from "../agent/events.ts";
import { pendingSecretPrefix, redactSecrets } from "../redact.ts";
import type { ModeOutput } from "./output.ts";

export function redactingOutput(secrets: readonly string[], io: ModeOutput): ModeOutput {
  return { ...io, out: (text) => io.out(redactSecrets(text, secrets)), err: (text) => io.err(redactSecrets(text, secrets)) };
}

type Streamed = Extract<AgentEvent, { type: "text_delta" | "thinking_delta" | "tool_use_args" | "tool_progress" }>;

function piece(e: Streamed): string {
  return e.type === "tool_use_args" ? e.delta : e.text;
}

function withPiece(e: Streamed, text: string): Streamed {
  return e.type === "tool_use_args" ? { ...e, delta: text } : { ...e, text };
}

/**
 * Streamed pieces (text, thinking, tool arguments, tool output) are masked across piece
 * boundaries: the end of a piece that could begin a secret is held back and sent with the next
 * piece of the same stream, or as a piece of its own before any other event. Other events are
 * passed on as they are, in order; the caller masks their serialized form.
 */
export function redactingEvents(secrets: readonly string[], write: (event: AgentEvent) => void): (event: AgentEvent) => void {
  let held: { key: string; event: Streamed; text: string } | null = null;
  const release = (): void => {
    if (!held) return;
    const { event, text } = held;
    held = null;
    if (text !== "") write(withPiece(event, redactSecrets(text, secrets)));
  };
  return (event) => {
    // The list grows while zot runs (a token, a secret set by /ext-config): checked per event.
    if (secrets.length === 0 && !held) return write(event);
    if (event.type !== "text_delta" && event.type !== "thinking_delta" && event.type !== "tool_use_args" && event.type !== "tool_progress") {
      release();
      write(event);
      return;
    }
    if (event.type === "text_delta" && event.held) {
      // A released held delta is a whole message: nothing can follow it, so it stays one piece.
      release();
      write({ ...event, text: redactSecrets(event.text, secrets) });
      return;
    }
    const key = event.type === "tool_use_args" || event.type === "tool_progress" ? `${event.type}:${event.id}` : event.type;
    const prev: string = held && held.key === key ? held.text : "";
    if (held && held.key !== key) release();
    held = null;
    const text = prev + piece(event);
    const keep = pendingSecretPrefix(text, secrets);
    const now = text.slice(0, text.length - keep);
    if (now !== "") write(withPiece(event, redactSecrets(now, secrets)));
    if (keep > 0) held = { key, event, text: text.slice(text.length - keep) };
  };
}
