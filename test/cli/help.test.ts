import { expect, test } from "bun:test";
import { helpText } from "../../src/cli/help.ts";

test("the help names every flag the parser knows, the environment variables and the exit statuses", () => {
  const help = helpText();
  const flags = [
    "-p, --print",
    "--json",
    "zot rpc",
    "--mode",
    "--provider",
    "--model",
    "--api-key",
    "--base-url",
    "--reasoning",
    "--list-models",
    "--mock-script",
    "--system-prompt",
    "--append-system-prompt",
    "-c, --continue",
    "-r, --resume",
    "--session",
    "--no-session",
    "--cwd",
    "--no-tools",
    "--tools",
    "--max-steps",
    "--no-yolo",
    "-e, --ext",
    "--no-ext",
    "--no-extensions",
    "--trust",
    "--ext-trace",
    "-h, --help",
    "-v, --version",
  ];
  for (const f of flags) expect(help).toContain(f);
  for (const v of ["ZOT_HOME", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "KIMI_API_KEY", "MOONSHOT_API_KEY", "ZOT_TRUST_PROJECT", "ZOTCORE_RPC_TOKEN"])
    expect(help).toContain(v);
  expect(help).toContain("Exit status: 0");
  for (const f of ["--wire", "KIMI_CODE_API_KEY"]) expect(help).toContain(f);
});
