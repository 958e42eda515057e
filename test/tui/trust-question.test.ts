// The text of the workspace-trust question, built from real discovery of a hostile project.
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { discover } from "../../src/ext/discovery.ts";
import { projectServers } from "../../src/mcp/config.ts";
import { trustQuestion } from "../../src/tui/trust-prompt.ts";
import { tempDir } from "../ext/cli-helpers.ts";

test("a manifest's control characters are shown escaped, never sent to the terminal; disabled and changed extensions are marked", async () => {
  const root = tempDir("zot-trustq-");
  const home = join(root, "home");
  const ext = join(root, "repo", ".zot", "extensions", "sneaky");
  mkdirSync(ext, { recursive: true });
  writeFileSync(join(ext, "run.sh"), "#!/bin/sh\n");
  chmodSync(join(ext, "run.sh"), 0o755);
  writeFileSync(
    join(ext, "extension.json"),
    JSON.stringify({ name: "sneaky", exec: "./run.sh", args: ["\x1b[2K\rok", "two words"], description: "hides\x1b]0;title\x07 \x9b2J", enabled: false }),
  );
  const found = await discover({ extPaths: [], noExt: false, cwd: join(root, "repo"), home });
  const text = trustQuestion(
    join(root, "repo"),
    found.filter((e) => e.status === "untrusted"),
  );
  expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  expect(text).toContain("  sneaky (disabled in its manifest)");
  expect(text).toContain("hides\\x1b]0;title\\x07 \\x9b2J");
  expect(text).toContain(`runs:         ${join(ext, "run.sh")} "\\x1b[2K\\x0dok" "two words"`);
});

test("project MCP servers are shown as written, control characters escaped, with what each runs or connects to", () => {
  const root = tempDir("zot-trustq-mcp-");
  const repo = join(root, "repo");
  mkdirSync(repo);
  writeFileSync(
    join(repo, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        local: { command: "npx", args: ["-y", "srv\x1b[2K"], env: { TOKEN: "${GH_TOKEN}" }, cwd: "tools", disabled: true },
        remote: { type: "http", url: "https://mcp.example.test/mcp\x07", headers: { Authorization: "Bearer ${API_TOKEN}" } },
      },
    }),
  );
  const servers = projectServers(repo).map((s) => ({ ...s, why: s.name === "local" ? ("new" as const) : ("untrusted" as const) }));
  const text = trustQuestion(repo, [], servers);
  expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  expect(text).toContain(`project MCP servers in ${repo} are new or changed since the folder was trusted:`);
  expect(text).toContain("  MCP server local (new, disabled in its list)");
  expect(text).toContain(`    runs:         npx -y "srv\\x1b[2K"`);
  expect(text).toContain(`    env:          "TOKEN=\\\${GH_TOKEN}"`);
  expect(text).toContain("    in:           tools");
  expect(text).toContain("  MCP server remote\n");
  expect(text).toContain("    connects to:  https://mcp.example.test/mcp\\x07");
  expect(text).toContain("    header:       Authorization: Bearer ${API_TOKEN}");
});

test("every kind of extension is described for what it is: a WebSocket one, a scoped one with its powers, a theme", async () => {
  const root = tempDir("zot-trustq-kinds-");
  const home = join(root, "home");
  const exts = join(root, "repo", ".zot", "extensions");
  const write = (name: string, manifest: object, files: Record<string, string> = {}) => {
    mkdirSync(join(exts, name), { recursive: true });
    writeFileSync(join(exts, name, "extension.json"), JSON.stringify({ name, ...manifest }));
    for (const [f, text] of Object.entries(files)) writeFileSync(join(exts, name, f), text);
  };
  write("bridge", { transport: { type: "websocket", url: "ws://127.0.0.1:7777/zot", token_env: "EDITOR_TOKEN" } });
  write("scoped", { exec: "/bin/sh", permissions: { net: { connect: [":443"] }, powers: ["rewrite_tool_calls"] } });
  write("colours", {}, { "theme.json": JSON.stringify({ name: "colours", colors: { text: "#000000" } }) });
  const found = await discover({ extPaths: [], noExt: false, cwd: join(root, "repo"), home });
  const text = trustQuestion(
    join(root, "repo"),
    found.filter((e) => e.status === "untrusted"),
  );
  expect(text).toContain("    connects to:  ws://127.0.0.1:7777/zot");
  expect(text).toContain(
    "    capabilities: a WebSocket extension running outside zot, which cannot sandbox it; through the protocol it can rewrite the agent's tool calls",
  );
  expect(text).toContain("                  zot sends it the value of $EDITOR_TOKEN from your environment");
  expect(text).not.toContain("nothing (a theme)\n    capabilities: a WebSocket");
  expect(text).toContain("    capabilities: connect to :443");
  expect(text).toContain("                  can rewrite the agent's tool calls, shell commands included: the same as running any command as you");
  expect(text).toContain("    runs:         nothing (a theme)\n    capabilities: nothing: a theme runs no program");
});
