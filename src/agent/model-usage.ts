// What a session spent, model by model: the tokens and cost of every response, kept in the
// transcript's usage rows (each names its provider and model), so a resumed session, /cost and an
// export all count the same calls, including side questions and compaction summaries.
import { readFileSync } from "node:fs";
import { isObject } from "../json.ts";
import { emptyUsage, type Usage } from "./messages.ts";
import { decodeUsage } from "./transcript-rows.ts";

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

/** The tally of a transcript's usage rows; a missing or unreadable file has none. */
export function transcriptModelUsage(path: string | null): ModelUsage[] {
  const tally: ModelUsage[] = [];
  if (path === null) return tally;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return tally;
  }
  for (const line of text.split("\n")) {
    // Only usage rows matter: a cheap test skips the (possibly large) message rows unparsed.
    if (!line.includes('"usage"')) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(v) || v.type !== "usage") continue;
    const u = decodeUsage(v.usage);
    if (!u) continue;
    addModelUsage(tally, typeof v.provider === "string" ? v.provider : "", typeof v.model === "string" ? v.model : "", u);
  }
  return tally;
}
