// Protocol powers: what an extension may make zot do in the user's name (rewrite a tool call, a
// tool result or the assistant's text, submit prompts, switch on deferred tools). The kernel scope
// says what the extension's own process may touch; the powers say what it may ask zot to do for
// it. A scoped extension holds the powers it declares and no others; one without `permissions`
// holds them all, as it holds the rest of the user's privileges. The host checks them where each
// power is used (intercept.ts, host.ts), so every caller goes through the check.
import { POWERS, type Power } from "../protocol.ts";
import type { Permissions } from "./sandbox/scope.ts";

export { POWERS, type Power };

/** What each power amounts to, in the words consent, trust and doctor listings use. */
export const POWER_WORDS: Record<Power, string> = {
  rewrite_tool_calls: "can rewrite the agent's tool calls, shell commands included: the same as running any command as you",
  rewrite_tool_results: "can rewrite what tools return to the model: it decides what the agent believes it read or ran",
  rewrite_assistant_text: "can replace or hide the assistant's replies: you see what it chooses",
  submit_prompts: "can send prompts to the agent as if you had typed them",
  activate_tools: "can switch on deferred tools for the model",
};

/** The powers an extension holds: its declared ones when it is scoped, every one when it declares no `permissions`. */
export function heldPowers(permissions: Permissions | null): ReadonlySet<Power> {
  return new Set(permissions ? permissions.powers : POWERS);
}

/** The sentence a refused use of `power` carries (the tool block, the log, the note). */
export function missingPower(extension: string, power: Power, attempt: string): string {
  return `extension "${extension}" tried to ${attempt} without the "${power}" power; its manifest declares "permissions" without it, so zot refused (add "${power}" to "permissions.powers" to allow it)`;
}
