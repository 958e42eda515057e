// Extension UI intents sent while zot is still loading reach the mode that listens later (the TUI);
// the runtime itself never runs a `submit`.
import { expect, test } from "bun:test";
import { resolve } from "node:path";
import type { AgentEvent } from "../../src/agent/events.ts";
import type { UiIntent } from "../../src/ext/types.ts";
import { startMockRuntime } from "../helpers/mock-runtime.ts";
import { waitFor } from "../helpers/wait.ts";
import { tempDir } from "../helpers/temp.ts";

const SUBMITTER = resolve(import.meta.dir, "../fixtures/ext/submit-at-start");

test("intents sent before anyone listened go, in order, to the first intent listener only, and submit is not run", async () => {
  const home = tempDir("zot-intents-");
  const runtime = await startMockRuntime(home, { ext: [SUBMITTER] });
  try {
    const events: AgentEvent[] = [];
    runtime.subscribe((e) => events.push(e));
    // The note follows the submit on the wire, so once it is here the submit was kept too.
    await waitFor(() => events.some((e) => e.type === "ext_notify"));
    const first: UiIntent[] = [];
    runtime.onIntent((i) => first.push(i));
    expect(first.filter((i) => i.kind !== "registry_changed")).toEqual([
      { kind: "submit", extension: "submit-at-start", text: "early bird prompt" },
      { kind: "notify", extension: "submit-at-start", level: "info", message: "early bird note" },
    ]);
    const second: UiIntent[] = [];
    runtime.onIntent((i) => second.push(i));
    expect(second).toEqual([]);
    // Without an interactive UI nothing acts on submit: no prompt ran.
    expect(runtime.messages()).toEqual([]);
    expect(events.some((e) => e.type === "user_message")).toBe(false);
  } finally {
    await runtime.close();
  }
});

test("later intents reach the listeners subscribed when they arrive, and none after unsubscribing", async () => {
  const home = tempDir("zot-intents-");
  const runtime = await startMockRuntime(home, { ext: [SUBMITTER] });
  try {
    const a: UiIntent[] = [];
    const b: UiIntent[] = [];
    runtime.onIntent((i) => a.push(i));
    const off = runtime.onIntent((i) => b.push(i));
    await waitFor(() => a.some((i) => i.kind === "notify"));
    off();
    const heardByB = b.length;
    // A reload restarts the extension, which sends its submit and note again: live, to `a` only.
    await runtime.host.reload();
    await waitFor(() => a.filter((i) => i.kind === "notify").length === 2);
    expect(a.filter((i) => i.kind === "submit").length).toBe(2);
    expect(b.length).toBe(heardByB);
  } finally {
    await runtime.close();
  }
});
