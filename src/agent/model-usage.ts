// What a session spent, model by model: the tokens and cost of every response, kept in the
// transcript's usage rows (each names its provider and model), so a resumed session, /cost and an
// export all count the same calls, including side questions and compaction summaries. The session
// loader tallies the rows as it reads them (openSession's byModel).
import { emptyUsage, type Usage } from "./messages.ts";

/** One model's share: `calls` responses, their summed usage. */
export type ModelUsage = { provider: string; model: string; calls: number; usage: Usage };

/** Adds one response to the tally (kept in first-use order). */
export function addModelUsage(tally: ModelUsage[], provider: string, model: string, u: Usage): void {
  let row = tally.find((r) => r.provider === provider && r.model === model);
  if (!row) {
    row = { provider, model, calls: 0, usage: emptyUsage() };
    tally.push(row);
  }
  row.calls++;
  const t = row.usage;
  row.usage = {
    input: t.input + u.input,
    output: t.output + u.output,
    cacheRead: t.cacheRead + u.cacheRead,
    cacheWrite: t.cacheWrite + u.cacheWrite,
    cost: t.cost + u.cost,
  };
}
