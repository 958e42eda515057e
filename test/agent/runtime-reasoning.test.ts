// The thinking levels /reasoning and alt+t offer: those the current model takes, from the catalog.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { EFFORTS } from "../../src/agent/choices.ts";
import type { Runtime } from "../../src/runtime/runtime.ts";
import { startMockRuntime } from "../helpers/mock-runtime.ts";
import { tempDir } from "../helpers/temp.ts";

let home: string;
let runtime: Runtime | null = null;
beforeEach(() => {
  home = tempDir("zot-reasoning-");
});
afterEach(async () => {
  await runtime?.close();
  runtime = null;
});

// Nothing listens there: the background model-list refresh fails at once.
const offline = { apiKey: "sk-test", baseUrl: "http://127.0.0.1:9" };

test("a model the catalog lists offers only its own thinking levels, and refuses the others by name", async () => {
  const rt = (runtime = await startMockRuntime(home, { provider: "anthropic", model: "claude-opus-4-5", ...offline }));
  expect(rt.reasoningLevels()).toEqual(["low", "medium", "high"]);
  expect(rt.setReasoning("high")).toEqual({ ok: true });
  expect(rt.reasoning).toBe("high");
  const r = rt.setReasoning("max");
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error).toBe('anthropic/claude-opus-4-5 does not take thinking level "max" (low, medium, high or off)');
  expect(rt.reasoning).toBe("high");
  expect(rt.setReasoning(null)).toEqual({ ok: true });
  expect(rt.reasoning).toBeNull();
});

test("a model the catalog does not describe offers every level; an unknown level is named as such", async () => {
  const rt = (runtime = await startMockRuntime(home));
  expect(rt.reasoningLevels()).toEqual(EFFORTS);
  const r = rt.setReasoning("extreme");
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error).toStartWith('unknown thinking level "extreme"');
});
