// /cost's tally: the usage rows of a real transcript, grouped by the provider and model each names.
import { expect, test } from "bun:test";
import { createSession, openSession } from "../../src/agent/session.ts";
import { tempDir } from "../helpers/temp.ts";

const home = tempDir("zot-usage-");

test("a transcript's usage rows add up per model, in first-use order, as the session loads", () => {
  const w = createSession({ home, cwd: home, provider: "anthropic", model: "a" });
  w.message({ role: "user", ts: 1, content: [{ type: "text", text: "hi" }] });
  const u = (input: number, cost: number) => ({ input, output: 10, cacheRead: 5, cacheWrite: 0, cost });
  w.usage(u(100, 0.01), u(100, 0.01), "anthropic", "a");
  w.usage(u(200, 0.02), u(300, 0.03), "openai", "b");
  w.usage(u(50, 0.005), u(350, 0.035), "anthropic", "a");
  w.close();
  const loaded = openSession(w.path ?? "");
  if (!loaded.ok) throw new Error(loaded.error);
  const tally = loaded.session.byModel;
  expect(tally.map((t) => [t.provider, t.model, t.calls, t.usage.input, t.usage.output, t.usage.cacheRead])).toEqual([
    ["anthropic", "a", 2, 150, 20, 10],
    ["openai", "b", 1, 200, 10, 5],
  ]);
  expect(tally[0]!.usage.cost).toBeCloseTo(0.015);
});
