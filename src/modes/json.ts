// JSON mode (`zot --json`): one JSON object per line for every agent event, then exit. RPC mode
// writes its events with the same serializer, so the two schemas cannot drift apart.
import type { AgentEvent } from "../agent/events.ts";
import type { Usage } from "../agent/messages.ts";
import type { AgentRuntime, PromptOutcome } from "../agent/runtime-api.ts";

export type ModeOutput = { out(text: string): void; err(text: string): void };

/**
 * One event as one line: the event as the loop emitted it, plus the Go zot's field names where
 * they differ (`text_delta.delta`; `usage`'s flat `input`, `output`, `cache_read`, `cache_write`,
 * `cost_usd` and `cumulative`), so clients written for it keep working.
 */
export function eventLine(event: AgentEvent): string {
  let wire: object = event;
  if (event.type === "text_delta") wire = { ...event, delta: event.text };
  else if (event.type === "usage") wire = { ...event, ...goUsage(event.usage), cumulative: goUsage(event.total) };
  return JSON.stringify(wire) + "\n";
}

function goUsage(u: Usage): { input: number; output: number; cache_read: number; cache_write: number; cost_usd: number } {
  return { input: u.input, output: u.output, cache_read: u.cacheRead, cache_write: u.cacheWrite, cost_usd: u.cost };
}

/** Exit status of a finished prompt for the one-shot modes: 0 when the model finished, else 1. */
export function exitCodeOf(outcome: PromptOutcome): number {
  return outcome.stop === "error" || outcome.stop === "aborted" || outcome.blocked ? 1 : 0;
}

export async function runJson(runtime: AgentRuntime, prompt: string, io: ModeOutput): Promise<number> {
  const unsubscribe = runtime.subscribe((event) => io.out(eventLine(event)));
  try {
    const outcome = await runtime.prompt(prompt);
    return exitCodeOf(outcome);
  } finally {
    unsubscribe();
  }
}
