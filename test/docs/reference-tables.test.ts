// The reference tables in docs/ that restate what the code defines — the flags, the built-in slash
// commands, the frames of both directions, the host's capabilities — are checked against the code,
// so a flag, command or frame added without its row (or a row left behind) fails here.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { FLAG_SPELLINGS } from "../../src/cli/args.ts";
import { HOST_CAPABILITIES } from "../../src/protocol.ts";
import { BUILTIN_COMMANDS } from "../../src/ext/name-rules.ts";
import { LOGIN_COMMAND } from "../../src/mcp/host.ts";
import { runExtCli } from "../../src/cli/ext.ts";
import type { DoctorStatus } from "../../src/ext/doctor-entry.ts";
import type { DiscoveredExtension } from "../../src/ext/types.ts";

const ROOT = resolve(import.meta.dir, "../..");
const doc = (name: string): string => readFileSync(join(ROOT, "docs", name), "utf8");

/** The first-column code spans of the table under `heading` (up to the next heading). */
function firstColumn(text: string, heading: string): string[] {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(/\n#{1,6} /);
  const section = end < 0 ? rest : rest.slice(0, end);
  return section
    .split("\n")
    .filter((l) => l.startsWith("| `"))
    .flatMap((l) => [...(l.split(/(?<!\\)\|/)[1] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replaceAll("\\|", "|")));
}

test("docs/agent.md's flag table lists every flag the parser takes, and no other", () => {
  const documented = new Set(firstColumn(doc("agent.md"), "## Flags").map((cell) => cell.split(/[ =]/)[0]!));
  const known = new Set(FLAG_SPELLINGS);
  expect([...known].filter((f) => !documented.has(f)).sort()).toEqual([]);
  expect([...documented].filter((f) => f.startsWith("-") && !known.has(f)).sort()).toEqual([]);
});

test("docs/tui.md's slash-command table lists every built-in command (and the MCP client's /mcp-login), and no other", () => {
  const rows = firstColumn(doc("tui.md"), "## Slash commands")
    .flatMap((cell) => cell.split(/\s+/))
    .filter((w) => w.startsWith("/"));
  const documented = new Set(rows.map((w) => w.slice(1)));
  const builtin = new Set<string>([...BUILTIN_COMMANDS.map((c) => c.name), LOGIN_COMMAND]);
  expect([...builtin].filter((c) => !documented.has(c)).sort()).toEqual([]);
  expect([...documented].filter((c) => !builtin.has(c)).sort()).toEqual([]);
});

function schemaFrames(def: "ExtensionFrame" | "HostFrame"): string[] {
  const schema = JSON.parse(readFileSync(join(ROOT, "sdk", "protocol.schema.json"), "utf8")) as {
    $defs: Record<string, { oneOf: { properties: { type: { const: string } } }[] }>;
  };
  return [...new Set(schema.$defs[def]!.oneOf.map((f) => f.properties.type.const))].sort();
}

test("docs/sdk.md's frame tables list every frame of both directions, as the schema does", () => {
  const sdk = doc("sdk.md");
  expect([...new Set(firstColumn(sdk, "### Extension → host"))].sort()).toEqual(schemaFrames("ExtensionFrame"));
  expect([...new Set(firstColumn(sdk, "### Host → extension"))].sort()).toEqual(schemaFrames("HostFrame"));
});

test("every host capability is named where the docs list hello_ack's capabilities", () => {
  for (const file of ["sdk.md", "ext-host.md"]) {
    const text = doc(file);
    for (const cap of HOST_CAPABILITIES) expect({ file, cap, named: text.includes(`\`${cap}\``) }).toEqual({ file, cap, named: true });
  }
});

test("docs/ext-cli.md's `zot ext` usage block lists every subcommand with the usage its help prints, and no other", async () => {
  let help = "";
  await runExtCli(["--help"], { stdout: { write: (t: string) => (help += t) }, stderr: { write: () => true } });
  const commands = help.slice(help.indexOf("commands:\n") + "commands:\n".length, help.indexOf("\n\n", help.indexOf("commands:\n")));
  const usages = commands.split("\n").map(
    (l) =>
      `zot ext ${l
        .trim()
        .split(/\s{2,}/)[0]!
        .replace(" | trust ", " | zot ext trust ")}`,
  );
  const text = doc("ext-cli.md");
  const block = text.slice(text.indexOf("## `zot ext`\n\n```\n") + "## `zot ext`\n\n```\n".length);
  const documented = block.slice(0, block.indexOf("```")).trim().split("\n");
  expect(documented.slice().sort()).toEqual(usages.slice().sort());
});

test("docs/ext-cli.md's list of states names every state an extension can end up in, spelled as the JSON spells it", () => {
  // A Record over the union: a state added to the code without a place here fails the type check.
  const states: Record<DoctorStatus | DiscoveredExtension["status"], true> = {
    spawn: true,
    ready: true,
    auto_ready: true,
    failed: true,
    invalid: true,
    disabled: true,
    shadowed: true,
    theme_only: true,
    untrusted: true,
    needs_config: true,
  };
  const text = doc("ext-cli.md");
  const from = text.indexOf("Every extension ends up in one of these states:");
  const paragraph = text.slice(from, text.indexOf("\n\n", from));
  // Discovery's `spawn` is the `enabled` of the docs (started), which doctor refines.
  for (const state of Object.keys(states).map((s) => (s === "spawn" ? "enabled" : s)))
    expect({ state, named: paragraph.includes(`\`${state}\``) }).toEqual({ state, named: true });
  expect(paragraph).not.toContain("needs-config");
});
