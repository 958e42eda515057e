// Provider failure modes through the real binary against the local provider server: what a user
// of `zot -p` sees, and what zot sends (or does not send) to the provider.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { useZotHome } from "./zot.ts";

const e2e = useZotHome();

const KEY = "sk-test-edges-0123456789";
const flags = (provider: "anthropic" | "openai") => [
  "-p",
  "--provider",
  provider,
  "--base-url",
  provider === "anthropic" ? e2e.server.url : e2e.server.openaiBase,
  "--api-key",
  KEY,
];
// A server that names its own delay; zot honours it, so the tests need not wait for the default backoff.
const now = { "retry-after-ms": "0" };

describe.each(["anthropic", "openai"] as const)("%s through zot -p", (provider) => {
  test("a 429 with retry-after is retried with a notice on stderr, then the answer is printed", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "status", status: 429, headers: { "retry-after": "0" }, body: "{}" },
        { kind: "turn", text: "after the limit" },
      ],
    });
    const r = await e2e.run([...flags(provider), "hi"]);
    expect(r).toMatchObject({ code: 0, stdout: "after the limit\n" });
    expect(r.stderr).toBe(`zot: ${provider} answered HTTP 429: {}; retrying in 0 s (attempt 2 of 3)\n`);
    expect(server.requests.length).toBe(2);
  });

  test("529 twice then success: two retries, each announced", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "status", status: 529, headers: now, body: "{}" },
        { kind: "status", status: 529, headers: now, body: "{}" },
        { kind: "turn", text: "finally" },
      ],
    });
    const r = await e2e.run([...flags(provider), "hi"]);
    expect(r).toMatchObject({ code: 0, stdout: "finally\n" });
    expect(server.requests.length).toBe(3);
  });

  test("529 three times gives up after two retries with one sentence", async () => {
    const server = e2e.serve({ replies: [1, 2, 3].map(() => ({ kind: "status" as const, status: 529, headers: now, body: "{}" })) });
    const r = await e2e.run([...flags(provider), "hi"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`zot: ${provider} is overloaded (HTTP 529`);
    const lines = r.stderr
      .trim()
      .split("\n")
      .filter((l) => l.startsWith("zot: ") && !l.includes("offline"));
    expect(lines.filter((l) => l.includes("retrying in"))).toHaveLength(2);
    expect(lines.filter((l) => !l.includes("retrying in"))).toHaveLength(1);
    expect(server.requests.length).toBe(3);
  });

  test("a 401 is not retried and says the key was rejected", async () => {
    const server = e2e.serve({ replies: [{ kind: "status", status: 401, body: "{}" }] });
    const r = await e2e.run([...flags(provider), "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`zot: the API key was rejected by ${provider}`);
    expect(server.requests.length).toBe(1);
  });

  test("a disconnect mid-stream fails the prompt and prints no partial answer", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "this answer is cut off somewhere in the middle", cutAfter: 3, cutMode: "error" }] });
    const r = await e2e.run([...flags(provider), "hi"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`zot: the connection to ${provider} was lost mid-response`);
    expect(server.requests.length).toBe(1);
  });

  test("a tool call with broken JSON arguments is never run, and the model is told why", async () => {
    const marker = join(e2e.home, "must-not-exist");
    const server = e2e.serve({
      replies: [
        { kind: "turn", toolCalls: [{ id: "call_bad", name: "bash", args: `{"command": "touch ${marker}` }] },
        { kind: "turn", text: "sorry" },
      ],
    });
    const r = await e2e.run([...flags(provider), "go"]);
    expect(r).toMatchObject({ code: 0, stdout: "sorry\n" });
    expect(existsSync(marker)).toBe(false);
    expect(JSON.stringify(server.requests[1]!.body)).toContain("not valid JSON");
  });

  test("a model that ends without any text leaves stdout empty and says so on stderr", async () => {
    e2e.serve({ replies: [{ kind: "turn", thinking: "nothing to say", text: "" }] });
    const r = await e2e.run([...flags(provider), "hi"]);
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(r.stderr).toContain("zot: the model finished without a text answer");
  });

  test("an empty text part is never sent back to the provider", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "turn", text: "", toolCalls: [{ id: "call_1", name: "bash", args: { command: "true" } }] },
        { kind: "turn", text: "done" },
      ],
    });
    const r = await e2e.run([...flags(provider), "go"]);
    expect(r).toMatchObject({ code: 0, stdout: "done\n" });
    const sent = JSON.stringify(server.requests[1]!.body);
    expect(sent).not.toContain('"text":""');
    expect(sent).toContain("call_1");
  });
});
