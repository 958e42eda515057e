import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { anthropic, FIXTURES, jsonLines, sessionFiles, useZotHome } from "./zot.ts";

const e2e = useZotHome();

const guard = (cfg: object) => ({ ZOT_TEST_GUARD: JSON.stringify(cfg) });
const messagesOf = (i: number) => JSON.stringify((e2e.server.requests[i]!.body as { messages: unknown }).messages);

function transcript(): Record<string, unknown>[] {
  return jsonLines(readFileSync(sessionFiles(e2e.home)[0]!, "utf8"));
}

function bashThenText(command: string, text = "finished") {
  return e2e.serve({
    replies: [
      { kind: "turn", toolCalls: [{ id: "toolu_1", name: "bash", args: { command } }] },
      { kind: "turn", text },
    ],
  });
}

describe("tool_call interception", () => {
  test("a block never runs the tool and gives the model the reason as the tool's error", async () => {
    bashThenText("rm -rf ./precious");
    const r = await e2e.run(["--json", ...anthropic(e2e.server), "-e", join(FIXTURES, "guard"), "clean up"], {
      env: guard({ intercept: ["tool_call"], block_command: "rm -rf" }),
    });
    expect(r.code).toBe(0);
    const result = jsonLines(r.stdout).find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ is_error: true, blocked_by: "guard" });
    expect(jsonLines(r.stdout).some((e) => e.type === "tool_progress")).toBe(false);
    expect(messagesOf(1)).toContain('refused: matches \\"rm -rf\\"');
  });

  test("an interceptor written in plain sh blocks too", async () => {
    bashThenText("rm -rf ./precious");
    const r = await e2e.run(["--json", ...anthropic(e2e.server), "-e", join(FIXTURES, "shguard"), "clean up"]);
    expect(jsonLines(r.stdout).find((e) => e.type === "tool_result")).toMatchObject({
      is_error: true,
      blocked_by: "shguard",
      content: [{ type: "text", text: "Blocked by extension shguard: shguard refuses rm -rf" }],
    });
  });

  test("modified_args run the tool with the rewritten args and the transcript records both", async () => {
    bashThenText("echo original");
    const r = await e2e.run(["--json", ...anthropic(e2e.server), "-e", join(FIXTURES, "guard"), "say it"], {
      env: guard({ intercept: ["tool_call"], rewrite_from: "echo original", rewrite_to: "echo rewritten" }),
    });
    const events = jsonLines(r.stdout);
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({
      args: { command: "echo rewritten" },
      original_args: { command: "echo original" },
      rewritten_by: ["guard"],
    });
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ is_error: false, content: [{ type: "text", text: "rewritten" }] });
    const lines = transcript().filter((l) => l.type === "message") as { message: { role: string; content: unknown }; intercept?: unknown }[];
    expect(JSON.stringify(lines.find((l) => l.message.role === "assistant")?.message.content)).toContain("echo original");
    const results = lines.find((l) => l.message.role === "tool")?.message.content as { intercept?: unknown }[];
    expect(results[0]!.intercept).toEqual({ args: { command: "echo rewritten" }, rewritten_by: ["guard"] });
  });

  test("covers extension tools as well as built-ins", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "turn", toolCalls: [{ name: "weather", args: { city: "Atlantis" } }] },
        { kind: "turn", text: "ok" },
      ],
    });
    const r = await e2e.run(["--json", ...anthropic(server), "-e", join(FIXTURES, "guard"), "-e", join(FIXTURES, "toolbox"), "weather"], {
      env: guard({ intercept: ["tool_call"], block_command: "Atlantis" }),
    });
    expect(jsonLines(r.stdout).find((e) => e.type === "tool_result")).toMatchObject({ is_error: true, blocked_by: "guard", extension: "toolbox" });
  });

  test("interceptors chain in discovery order: the second sees the first one's rewrite", async () => {
    bashThenText("echo original");
    const r = await e2e.run(["--json", ...anthropic(e2e.server), "-e", join(FIXTURES, "guard"), "-e", join(FIXTURES, "guard2"), "go"], {
      env: {
        ...guard({ intercept: ["tool_call"], rewrite_from: "echo original", rewrite_to: "echo step-one" }),
        ZOT_TEST_GUARD2: JSON.stringify({ intercept: ["tool_call"], block_command: "step-one" }),
      },
    });
    const result = jsonLines(r.stdout).find((e) => e.type === "tool_result") as { blocked_by: string; content: { text: string }[] };
    expect(result.blocked_by).toBe("guard2");
  });

  test("an interceptor that does not answer in time allows the call", async () => {
    bashThenText("echo still-ran");
    const r = await e2e.run(["--json", ...anthropic(e2e.server), "-e", join(FIXTURES, "guard"), "go"], {
      env: guard({ intercept: [{ event: "tool_call", timeout_ms: 200 }], hang: ["tool_call"] }),
    });
    const events = jsonLines(r.stdout);
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ is_error: false, content: [{ type: "text", text: "still-ran" }] });
    const trace = events.find((e) => e.type === "intercept_trace" && e.event === "tool_call") as { steps: { outcome: string }[] };
    expect(trace.steps[0]!.outcome).toBe("timeout");
  });

  test("a fail-closed interceptor that times out blocks the call, naming the extension", async () => {
    bashThenText("echo must-not-run");
    const r = await e2e.run(["--json", ...anthropic(e2e.server), "-e", join(FIXTURES, "guard"), "go"], {
      env: guard({ intercept: [{ event: "tool_call", timeout_ms: 200, on_timeout: "block" }], hang: ["tool_call"] }),
    });
    const result = jsonLines(r.stdout).find((e) => e.type === "tool_result") as { is_error: boolean; blocked_by: string; content: { text: string }[] };
    expect(result.is_error).toBe(true);
    expect(result.blocked_by).toBe("guard");
    expect(r.stdout).not.toContain("must-not-run\\n");
  });
});

describe("turn_start interception", () => {
  test("a block ends the turn before the model is called and print mode says why", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "never" }] });
    const r = await e2e.run(["-p", ...anthropic(server), "-e", join(FIXTURES, "guard"), "hello"], {
      env: guard({ intercept: ["turn_start"], block_step: 1 }),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("zot: the turn was blocked by extension guard: no step 1 today");
    expect(server.requests.length).toBe(0);
  });

  test("JSON mode reports the blocked turn as an event", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", toolCalls: [{ name: "bash", args: { command: "true" } }] }] });
    const r = await e2e.run(["--json", ...anthropic(server), "-e", join(FIXTURES, "guard"), "hello"], {
      env: guard({ intercept: ["turn_start"], block_step: 2 }),
    });
    expect(r.code).toBe(1);
    expect(jsonLines(r.stdout).find((e) => e.type === "turn_blocked")).toEqual({
      type: "turn_blocked",
      step: 2,
      extension: "guard",
      reason: "no step 2 today",
    });
    expect(server.requests.length).toBe(1);
  });
});

describe("assistant_message interception", () => {
  test("replace_text: the user sees the replacement, the model's history keeps the original", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "turn", text: "the key is SECRET-123" },
        { kind: "turn", text: "next" },
      ],
    });
    const r = await e2e.run(["-p", ...anthropic(server), "-e", join(FIXTURES, "guard"), "key?"], {
      env: guard({ intercept: ["assistant_message"], redact: "SECRET" }),
    });
    expect(r).toMatchObject({ code: 0, stdout: "the key is [redacted]-123\n" });
    const assistant = transcript().find((l) => l.type === "message" && (l.message as { role: string }).role === "assistant") as {
      message: unknown;
      intercept: unknown;
    };
    expect(JSON.stringify(assistant.message)).toContain("SECRET-123");
    expect(assistant.intercept).toEqual({ shown_text: "the key is [redacted]-123", rewritten_by: ["guard"] });
  });

  test("held deltas: JSON mode never streams the original text, only the released replacement", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "the key is SECRET-123" }] });
    const r = await e2e.run(["--json", ...anthropic(server), "-e", join(FIXTURES, "guard"), "key?"], {
      env: guard({ intercept: ["assistant_message"], redact: "SECRET" }),
    });
    expect(r.stdout).not.toContain("SECRET");
    const deltas = jsonLines(r.stdout).filter((e) => e.type === "text_delta");
    expect(deltas).toEqual([{ type: "text_delta", text: "the key is [redacted]-123", held: true, delta: "the key is [redacted]-123" }]);
    expect(jsonLines(r.stdout).find((e) => e.type === "assistant_message")).toEqual({
      type: "assistant_message",
      text: "the key is [redacted]-123",
      content: [{ type: "text", text: "the key is [redacted]-123" }],
      time: expect.any(String),
      rewritten_by: ["guard"],
    });
  });

  test("block: the user never sees the message and print mode says it was hidden", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "FORBIDDEN words" }] });
    const r = await e2e.run(["-p", ...anthropic(server), "-e", join(FIXTURES, "guard"), "talk"], {
      env: guard({ intercept: ["assistant_message"], hide: "FORBIDDEN" }),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toContain("FORBIDDEN");
    expect(r.stderr).toContain("zot: the answer was hidden by extension guard: hidden by guard");
  });

  test("block in JSON mode: no text_delta at all, and assistant_message says who hid it", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "FORBIDDEN words" }] });
    const r = await e2e.run(["--json", ...anthropic(server), "-e", join(FIXTURES, "guard"), "talk"], {
      env: guard({ intercept: ["assistant_message"], hide: "FORBIDDEN" }),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("FORBIDDEN");
    const events = jsonLines(r.stdout);
    expect(events.some((e) => e.type === "text_delta")).toBe(false);
    expect(events.find((e) => e.type === "assistant_message")).toEqual({
      type: "assistant_message",
      text: "",
      content: [],
      time: expect.any(String),
      blocked: true,
      blocked_by: "guard",
      reason: "hidden by guard",
    });
    expect(events.at(-1)).toMatchObject({ type: "done", stop: "end_turn", text: "" });
  });

  test("without an assistant_message interceptor deltas stream as they arrive", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "plain streamed text that is long enough to split" }] });
    const r = await e2e.run(["--json", ...anthropic(server), "hi"]);
    const deltas = jsonLines(r.stdout).filter((e) => e.type === "text_delta");
    expect(deltas.every((d) => d.held === undefined)).toBe(true);
    expect(deltas.map((d) => d.text).join("")).toBe("plain streamed text that is long enough to split");
  });
});

describe("tool_result interception", () => {
  test("replace_content changes what the model receives", async () => {
    bashThenText("echo password=$((40+2))");
    const r = await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(e2e.server), "-e", join(FIXTURES, "guard"), "go"], {
      env: guard({ intercept: ["tool_result"], withhold: "password" }),
    });
    expect(jsonLines(r.stdout).find((e) => e.type === "tool_result")).toMatchObject({
      content: [{ type: "text", text: "[guard withheld this result]" }],
      rewritten_by: ["guard"],
    });
    expect(messagesOf(1)).not.toContain("password=42");
    expect(messagesOf(1)).toContain("[guard withheld this result]");
    const result = transcript().find((l) => l.type === "message" && (l.message as { role: string }).role === "tool") as {
      message: { content: { intercept?: unknown }[] };
    };
    expect(JSON.stringify(result.message)).toContain("[guard withheld this result]");
    expect(result.message.content[0]!.intercept).toEqual({ result_rewritten_by: ["guard"] });
  });

  test("print mode applies tool_call interceptors too", async () => {
    bashThenText("rm -rf ./precious", "could not");
    const r = await e2e.run(["-p", ...anthropic(e2e.server), "-e", join(FIXTURES, "guard"), "clean up"], {
      env: guard({ intercept: ["tool_call"], block_command: "rm -rf" }),
    });
    expect(r).toMatchObject({ code: 0, stdout: "could not\n" });
    expect(r.stderr).toContain('[tool] bash failed: Blocked by extension guard: refused: matches "rm -rf"');
  });
});
