// Interceptors in a real terminal: a rewritten reply shows only the rewrite, a hidden reply shows
// a dim note and none of its words, a refused turn says who refused it and why.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, useTmux } from "./helpers/tmux.ts";
import { tempDir } from "../helpers/temp.ts";

const scripts = tempDir("zot-tui-script-");

const tui = useTmux();

const READY = "Ask anything";

test("rewritten and hidden replies never show the original words; a refused turn shows its reason", async () => {
  const t = await tui.start({ args: ["-e", fixture("gate")] });
  await t.waitFor(READY);
  t.send("tell the secret plan");
  await t.waitFor("mock: tell the [masked] plan");
  t.send("say forbidden-word");
  let s = await t.waitFor("● reply hidden by gate: contains a forbidden word");
  expect(s).not.toContain("mock: say forbidden-word");
  expect(s).not.toContain("mock: tell the secret");

  t.send("/gate-close");
  t.send("are you there");
  s = await t.waitFor("● Turn blocked by gate: the gate is closed for maintenance");
  expect(s).not.toContain("mock: are you there");
  // The refusal is red, like an error.
  const colored = t.screen(true);
  expect(colored).toMatch(/\x1b\[[0-9;]*38;[0-9;]+m● Turn blocked by gate/);
  await t.waitGone("working");
  t.send("/gate-open");
  t.send("back again");
  await t.waitFor("mock: back again");

  // A resumed session shows the replies as they were shown, not as the model wrote them.
  t.send("/clear");
  await t.waitFor("Started a fresh session.");
  t.send("/sessions");
  await t.waitFor("Resume session");
  t.keys("Enter");
  s = await t.waitFor("Resumed session");
  expect(s).toContain("mock: tell the [masked] plan");
  expect(s).toContain("● reply hidden by gate: contains a forbidden word");
  expect(s).not.toContain("mock: tell the secret");
  expect(s).not.toContain("mock: say forbidden-word");
}, 30_000);

test("the redact example masks a key in the reply without the key ever reaching the screen", async () => {
  const t = await tui.start({ args: ["-e", fixture("../../../examples/extensions/redact")] });
  await t.waitFor(READY);
  const key = "sk-ant-api03-" + "abcdefghij".repeat(4);
  t.send(`my key is ${key} ok`);
  const s = await t.waitFor("mock: my key is sk-ant-…[redacted] ok");
  // The prompt line holds the key (the user typed it); the reply never does.
  expect(s.split(key).length - 1).toBe(1);
}, 30_000);

for (const held of [false, true]) {
  test(`text before a tool call shows once, above the tool's block (${held ? "held by an interceptor" : "streamed"})`, async () => {
    const script = join(scripts, `script-${held}.jsonl`);
    writeFileSync(
      script,
      [{ text: "Let me look first.", tool_calls: [{ name: "bash", args: { command: "echo looked" } }] }, { text: "All done." }]
        .map((l) => JSON.stringify(l))
        .join("\n"),
    );
    const t = await tui.start({ args: ["--mock-script", script, ...(held ? ["-e", fixture("gate")] : [])] });
    await t.waitFor(READY);
    t.send("go");
    const s = await t.waitFor("All done.");
    expect(s.split("Let me look first.").length - 1).toBe(1);
    expect(s.indexOf("Let me look first.")).toBeLessThan(s.indexOf("✓ bash echo looked"));
  }, 30_000);
}
