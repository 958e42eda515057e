// Long sessions in a real terminal, against a real provider server on 127.0.0.1: automatic
// compaction shown while it runs and cancelled by esc with the history untouched, and a turn
// stopped by --max-steps offered to go on.
import { expect, test } from "bun:test";
import { useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

const T = 40_000;

test(
  "a turn that fills the context shows 'condensing history, esc to cancel'; esc leaves the history as it was",
  async () => {
    const server = tui.serve({
      replies: [
        { kind: "turn", text: "big answer", usage: { input: 1_000_000, output: 10 } },
        // The summary request hangs until cancelled.
        { kind: "turn", text: "never finished summary", stallAfter: 1 },
        { kind: "turn", text: "next answer" },
      ],
    });
    const t = await tui.start({
      args: ["--provider", "openai", "--model", "gpt-6.2-sol", "--base-url", server.openaiBase],
      env: { OPENAI_API_KEY: "test-key" },
    });
    await t.waitFor("Ask anything");
    t.send("fill it up");
    await t.waitFor("big answer");
    await t.waitFor("condensing history, esc to cancel");
    t.keys("Escape");
    await t.waitFor("Compaction cancelled; the history is unchanged.");
    t.send("go on");
    await t.waitFor("next answer");
    // The Responses wire (the catalog's OpenAI models use it) sends the conversation as `input` items.
    const last = server.requests[server.requests.length - 1]!.body as { input: unknown[] };
    const texts = last.input.map((item) => JSON.stringify(item));
    expect(texts.some((c) => c.includes("fill it up"))).toBe(true);
    expect(texts.some((c) => c.includes("big answer"))).toBe(true);
    expect(texts.some((c) => c.includes("Summary of the earlier conversation"))).toBe(false);
  },
  T,
);

test(
  "a turn stopped by --max-steps offers to continue for another round of steps",
  async () => {
    const t = await tui.start({ args: ["--max-steps", "1"] });
    await t.waitFor("Ask anything");
    t.send('call bash {"command":"echo went-on"}');
    const s = await t.waitFor("The agent stopped after 1 steps");
    expect(s).toContain("Continue for another 1 steps");
    t.keys("Enter");
    await t.waitFor("mock: tool bash returned: went-on");
  },
  T,
);
