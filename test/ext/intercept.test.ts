// Serial interception through real extensions: order, block, rewrite chains, timeouts, fail-closed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { start } from "./fixture-host.ts";
import type { Harness } from "./fixture-host.ts";

const toolCall = (command: string) => ({ event: "tool_call" as const, tool_id: "t1", tool_name: "bash", tool_args: { command } });

describe("interception chain", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await start(["guard-a", "guard-b", "guard-slow"]);
  });
  afterAll(() => h.close());

  test("rewrites chain in discovery order; a silent fail-open interceptor allows after its deadline", async () => {
    const r = await h.host.intercept(toolCall("ls"));
    expect(r.blocked).toBe(false);
    expect(r.args).toEqual({ command: "ls -la #b" });
    expect(r.steps.map((s) => [s.extension, s.outcome])).toEqual([
      ["guard-a", "rewrite"],
      ["guard-b", "rewrite"],
      ["guard-slow", "timeout"],
    ]);
    expect(r.steps.every((s) => s.ms >= 0)).toBe(true);
  });

  test("the first block wins and later interceptors are not asked", async () => {
    const r = await h.host.intercept(toolCall("rm -rf /"));
    expect(r).toMatchObject({ blocked: true, blockedBy: "guard-a", reason: "refused rm" });
    expect(r.steps.map((s) => s.extension)).toEqual(["guard-a"]);
  });

  test("modified_args that is not an object is ignored with a warning", async () => {
    const r = await h.host.intercept(toolCall("bad-args"));
    expect(r.args).toEqual({ command: "bad-args #b" });
    expect(h.host.states()[0]!.warnings.some((w) => w.includes("modified_args") && w.includes("JSON object"))).toBe(true);
  });

  test("assistant_message text rewrites chain", async () => {
    const r = await h.host.intercept({ event: "assistant_message", text: "key SECRET here" });
    expect(r.text).toBe("key [redacted] here (b)");
    expect(r.steps.map((s) => s.outcome)).toEqual(["rewrite", "rewrite"]);
  });

  test("tool_result interception replaces content and the error flag, each seeing the previous output", async () => {
    const r = await h.host.intercept({
      event: "tool_result",
      tool_id: "t1",
      tool_name: "bash",
      tool_args: {},
      content: [{ type: "text", text: "it did fail" }],
      is_error: false,
    });
    expect(r.content).toEqual([{ type: "text", text: "IT DID FAIL" }]);
    expect(r.isError).toBe(true);
  });

  test("a fail-closed interceptor that times out blocks, naming its extension", async () => {
    const r = await h.host.intercept({ event: "turn_start", step: 1 });
    expect(r.blocked).toBe(true);
    expect(r.blockedBy).toBe("guard-slow");
    expect(r.reason).toContain(`extension "guard-slow" did not answer`);
    expect(r.reason).toContain("fail-closed");
    expect(r.steps.map((s) => s.outcome)).toEqual(["allow", "allow", "timeout"]);
    expect(r.steps[0]!.reason).toBe("ok a");
  });

  test("turn_start can be blocked with a reason for the user", async () => {
    const r = await h.host.intercept({ event: "turn_start", step: 7 });
    expect(r).toMatchObject({ blocked: true, blockedBy: "guard-b", reason: "b blocks step 7" });
  });

  test("hasInterceptor reflects subscriptions", () => {
    expect(h.host.hasInterceptor("tool_call")).toBe(true);
    expect(h.host.hasInterceptor("tool_result")).toBe(true);
  });
});

describe("fail-closed interceptors whose answer is invalid", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await start(["guard-closed-bad"]);
  });
  afterAll(() => h.close());

  test("modified_args that is not an object blocks the call, with a reason naming the extension", async () => {
    const r = await h.host.intercept(toolCall("bad-args"));
    expect(r.blocked).toBe(true);
    expect(r.blockedBy).toBe("guard-closed-bad");
    expect(r.reason).toBe(
      'extension "guard-closed-bad" answered the tool_call interception with modified_args for tool "bash" that is not a JSON object; its interceptor is fail-closed, so this was blocked',
    );
    expect(r.args).toBeUndefined();
  });

  test("an answer the decoder refuses (block as a string) blocks, naming the extension", async () => {
    const r = await h.host.intercept(toolCall("bad-block"));
    expect(r).toMatchObject({ blocked: true, blockedBy: "guard-closed-bad" });
    expect(r.reason).toContain('extension "guard-closed-bad" sent an invalid event_intercept_response');
    expect(r.reason).toContain("fail-closed");
  });

  test("invalid replace_text and replace_content block too; a valid empty answer allows", async () => {
    expect(await h.host.intercept({ event: "assistant_message", text: "hi" })).toMatchObject({ blocked: true, blockedBy: "guard-closed-bad" });
    const result = {
      event: "tool_result" as const,
      tool_id: "t1",
      tool_name: "bash",
      tool_args: {},
      content: [{ type: "text" as const, text: "x" }],
      is_error: false,
    };
    expect(await h.host.intercept(result)).toMatchObject({ blocked: true, blockedBy: "guard-closed-bad" });
    expect((await h.host.intercept(toolCall("ls"))).blocked).toBe(false);
  });
});

describe("fail-closed interceptors whose extension is gone", () => {
  test("block with a reason naming the extension; fail-open ones are skipped", async () => {
    const h = await start(["guard-a", "guard-closed"]);
    try {
      expect((await h.host.intercept({ event: "assistant_message", text: "x" })).blocked).toBe(false);
      await h.host.invokeCommand("closed-die", "");
      await h.host.invokeCommand("a-die", "");
      const r = await h.host.intercept({ event: "assistant_message", text: "x" });
      expect(r.blocked).toBe(true);
      expect(r.blockedBy).toBe("guard-closed");
      expect(r.reason).toContain(`extension "guard-closed"`);
      expect(r.steps.map((s) => [s.extension, s.outcome])).toEqual([
        ["guard-a", "unavailable"],
        ["guard-closed", "unavailable"],
      ]);
      expect(h.host.hasInterceptor("assistant_message")).toBe(true);
      expect(h.host.hasInterceptor("tool_call")).toBe(false);
      expect((await h.host.intercept(toolCall("rm -rf /"))).blocked).toBe(false);
    } finally {
      await h.close();
    }
  });

  test("with no interceptors, everything is allowed unchanged", async () => {
    const h = await start(["legacy"]);
    try {
      expect(await h.host.intercept(toolCall("ls"))).toEqual({ blocked: false, steps: [] });
    } finally {
      await h.close();
    }
  });
});
