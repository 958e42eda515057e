// The test server also runs as its own process, for end-to-end tests of the zot binary.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createProvider } from "../../../src/agent/providers/index.ts";
import { collect } from "../../helpers/collect-stream.ts";
import { tempDir } from "../../helpers/temp.ts";

const dir = tempDir("zot-pserver-");

test("started as a process it prints its URL, serves the script and records requests", async () => {
  const script = join(dir, "replies.json");
  const record = join(dir, "requests.jsonl");
  writeFileSync(
    script,
    JSON.stringify([
      { kind: "turn", text: "from a process" },
      { kind: "turn", toolCalls: [{ name: "bash", args: { command: "ls" } }] },
    ]),
  );
  const proc = Bun.spawn([process.execPath, resolve(import.meta.dir, "../../helpers/provider-server.ts"), "--script", script, "--record", record], {
    stdout: "pipe",
    stderr: "inherit",
  });
  try {
    const reader = proc.stdout.getReader();
    let out = "";
    while (!out.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    const url = out.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const first = await collect(createProvider({ provider: "anthropic", apiKey: "test-key-1", baseUrl: url }), { model: "claude-sonnet-4-5" });
    expect(first.text).toBe("from a process");
    const second = await collect(createProvider({ provider: "openai", apiKey: "test-key-1", baseUrl: `${url}/v1` }), { model: "gpt-4o" });
    expect(second.message.stop).toBe("tool_use");
    const lines = readFileSync(record, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.path)).toEqual(["/v1/messages", "/v1/chat/completions"]);
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
});
