// Hostile input from extensions against the built binary: schemas no model call survives, and
// fail-closed interceptors whose answers make no sense.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startProviderServer, type ProviderServer } from "../helpers/provider-server.ts";
import { jsonLines, ROOT, runZot, tempDir } from "./zot.ts";

const EXT = join(ROOT, "test", "fixtures", "ext");

let home: string;
let cleanup: () => void;
let server: ProviderServer | null = null;

beforeEach(() => {
  ({ dir: home, cleanup } = tempDir());
});
afterEach(async () => {
  await server?.stop();
  server = null;
  cleanup();
});

const anthropic = (s: ProviderServer) => ["--provider", "anthropic", "--base-url", s.url, "--api-key", "sk-test-e2e-key-000"];

describe("tool schemas past the limits", () => {
  test("a tool whose schema is nested 100 000 deep or 1 MiB large is refused at registration; the model call works and gets the other tools", async () => {
    server = startProviderServer({ replies: [{ kind: "turn", text: "all good" }] });
    const r = await runZot(["-p", ...anthropic(server), "-e", join(EXT, "deep-schema"), "hi"], { home });
    expect(r.stderr).not.toContain("Maximum call stack");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("all good\n");
    const tools = ((server.requests[0].body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);
    expect(tools).toContain("fine");
    expect(tools).not.toContain("deep");
    expect(tools).not.toContain("huge");

    const doctor = JSON.parse((await runZot(["ext", "doctor", "--json", "-e", join(EXT, "deep-schema")], { home })).stdout);
    const e = doctor.extensions[0];
    expect(e.tools.map((t: { name: string }) => t.name)).toEqual(["fine"]);
    expect(e.warnings).toContain('tool "deep" of extension "deep-schema" rejected: its schema is nested more than 64 levels deep; simplify the schema');
    expect(e.warnings).toContain('tool "huge" of extension "deep-schema" rejected: its schema is larger than 256 KiB as JSON; simplify the schema');
  }, 30_000);
});

describe("a fail-closed interceptor with an invalid answer", () => {
  test("modified_args that is a string blocks the bash call instead of letting it run, and says which extension", async () => {
    const marker = join(home, "ran");
    server = startProviderServer({
      replies: [
        { kind: "turn", toolCalls: [{ id: "toolu_1", name: "bash", args: { command: `touch ${marker} # bad-args` } }] },
        { kind: "turn", text: "done" },
      ],
    });
    const r = await runZot(["--json", ...anthropic(server), "-e", join(EXT, "guard-closed-bad"), "go"], { home });
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const result = jsonLines(r.stdout).find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ is_error: true, blocked_by: "guard-closed-bad" });
    expect(JSON.stringify(result)).toContain('extension \\"guard-closed-bad\\" answered the tool_call interception with modified_args');
  }, 30_000);
});
