// `zot ext test` masks the extension's settings secrets in what it prints and in the extension's
// log: a failed expectation quotes the frame that arrived, and the `echoer` fixture puts its key there.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cli, tempDir } from "./cli-helpers.ts";

const ECHOER = resolve(import.meta.dir, "../fixtures/ext/echoer");
const KEY = "sk-harness-secret-value-4242";

test("zot ext test prints no settings secret, in a failed step's quote or in --json, and the log holds none", async () => {
  const home = tempDir();
  mkdirSync(join(home, "extension-settings"), { recursive: true });
  writeFileSync(join(home, "extension-settings", "echoer.json"), JSON.stringify({ values: { api_key: KEY }, secrets: ["api_key"] }), { mode: 0o600 });
  const script = join(home, "script.jsonl");
  writeFileSync(
    script,
    [
      { send: { type: "tool_call", id: "$auto", name: "reveal", args: {} } },
      { expect: { type: "tool_result", id: "$last_id", content: [{ type: "text", text: "something else" }] }, within_ms: 3000 },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n"),
  );
  for (const json of [false, true]) {
    const r = await cli(["test", ECHOER, script, ...(json ? ["--json"] : [])], { home, cwd: home });
    expect(r.code).toBe(1);
    expect(r.out).toContain("sk-h…[redacted]");
    expect(r.out).not.toContain(KEY);
  }
  const log = readFileSync(join(home, "logs", "ext-echoer.log"), "utf8");
  expect(log).toContain("started with key sk-h…[redacted]");
  expect(log).not.toContain(KEY);
});
