// Hostile input from extensions against the built binary: schemas no model call survives, and
// fail-closed interceptors whose answers make no sense.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { anthropic, jsonLines, ROOT, useZotHome } from "./zot.ts";

const EXT = join(ROOT, "test", "fixtures", "ext");

const e2e = useZotHome();

describe("tool schemas past the limits", () => {
  test("a tool whose schema is nested 100 000 deep or 1 MiB large is refused at registration; the model call works and gets the other tools", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "all good" }] });
    const r = await e2e.run(["-p", ...anthropic(server), "-e", join(EXT, "deep-schema"), "hi"]);
    expect(r.stderr).not.toContain("Maximum call stack");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("all good\n");
    const tools = ((server.requests[0]!.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);
    expect(tools).toContain("fine");
    expect(tools).not.toContain("deep");
    expect(tools).not.toContain("huge");

    const doctor = JSON.parse((await e2e.run(["ext", "doctor", "--json", "-e", join(EXT, "deep-schema")])).stdout);
    const e = doctor.extensions[0];
    expect(e.tools.map((t: { name: string }) => t.name)).toEqual(["fine"]);
    expect(e.warnings).toContain('tool "deep" of extension "deep-schema" rejected: its schema is nested more than 64 levels deep; simplify the schema');
    expect(e.warnings).toContain('tool "huge" of extension "deep-schema" rejected: its schema is larger than 256 KiB as JSON; simplify the schema');
  }, 30_000);
});

describe("a fail-closed interceptor with an invalid answer", () => {
  test("modified_args that is a string blocks the bash call instead of letting it run, and says which extension", async () => {
    const marker = join(e2e.home, "ran");
    const server = e2e.serve({
      replies: [
        { kind: "turn", toolCalls: [{ id: "toolu_1", name: "bash", args: { command: `touch ${marker} # bad-args` } }] },
        { kind: "turn", text: "done" },
      ],
    });
    const r = await e2e.run(["--json", ...anthropic(server), "-e", join(EXT, "guard-closed-bad"), "go"]);
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const result = jsonLines(r.stdout).find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ is_error: true, blocked_by: "guard-closed-bad" });
    expect(JSON.stringify(result)).toContain('extension \\"guard-closed-bad\\" answered the tool_call interception with modified_args');
  }, 30_000);
});
