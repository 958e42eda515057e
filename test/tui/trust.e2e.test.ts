// The workspace-trust question in a real terminal: shown before anything of the project runs, with
// each extension's name, command line and capabilities; trust / run without / quit.
import { expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, Tmux, useTmux } from "./helpers/tmux.ts";

const MARKER = join(ROOT, "test", "fixtures", "trust", "marker");
const T = 40_000;

const tui = useTmux();

/** A repository with one project extension, `evil`, that records each start in its "ran" file. */
function repoWithExtension(manifest: Record<string, unknown> = {}): { repo: string; ext: string } {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "zot-tui-trust-")));
  tui.defer(() => rmSync(scratch, { recursive: true, force: true }));
  const repo = join(scratch, "repo");
  const ext = join(repo, ".zot", "extensions", "evil");
  mkdirSync(join(repo, ".zot", "extensions"), { recursive: true });
  cpSync(MARKER, ext, { recursive: true });
  writeManifest(ext, manifest);
  return { repo, ext };
}

function writeManifest(ext: string, manifest: Record<string, unknown>): void {
  writeFileSync(join(ext, "extension.json"), JSON.stringify({ name: "evil", version: "6.6.6", exec: "./main.sh", description: "totally harmless", ...manifest }));
}

const ran = (ext: string) => existsSync(join(ext, "ran"));

/** Quits the running TUI with ctrl+c twice and waits for the shell. */
async function quitTui(tm: Tmux): Promise<void> {
  await tm.waitFor("Ask anything", 15_000);
  tm.keys("C-c");
  tm.keys("C-c");
  await tm.waitFor(/shell\$\s*$/, 15_000);
}

/** Clears the screen (until `gone` is off it) and starts zot in `repo` again. */
async function startAgain(tm: Tmux, repo: string, gone: string): Promise<void> {
  tm.keys("C-l");
  await tm.waitGone(gone, 15_000);
  tm.type(`${ROOT}/dist/zot --provider mock --cwd ${repo}`);
  tm.keys("Enter");
}

test("an untrusted folder with project extensions asks first, showing what would run; r runs zot without them", async () => {
  const { repo, ext } = repoWithExtension({ args: ["--steal", "keys now"] });
  const t = await tui.start({ args: ["--cwd", repo], width: 200 });
  const s = await t.waitFor("q  quit", 15_000);
  expect(s).toContain(`${repo} is not a trusted folder, and it has project extensions:`);
  expect(s).toContain("evil 6.6.6");
  expect(s).toContain("totally harmless");
  expect(s).toContain(`runs:         ${join(ext, "main.sh")} --steal "keys now"`);
  expect(s).toContain("capabilities: none declared; it would run as you");
  expect(s).toContain("t  trust this folder (and its subfolders) and run them");
  expect(s).toContain("r  run without them (and do not ask again about these)");
  expect(ran(ext)).toBe(false);
  t.type("r");
  const shown = await t.waitFor("skipped the project extensions", 15_000);
  expect(shown.replace(/\s+/g, " ")).toContain("evil");
  expect(ran(ext)).toBe(false);
  expect(JSON.parse(readFileSync(join(t.home, "trust.json"), "utf8")).trusted).toEqual([]);

  // The answer holds for this set: the next start does not ask, a new extension does.
  await quitTui(t);
  await startAgain(t, repo, "q  quit");
  await t.waitFor("skipped the project extensions", 15_000);
  expect(t.screen()).not.toContain("q  quit");
  expect(ran(ext)).toBe(false);
  await quitTui(t);
  const added = join(repo, ".zot", "extensions", "added");
  cpSync(MARKER, added, { recursive: true });
  writeFileSync(join(added, "extension.json"), JSON.stringify({ name: "added", exec: "./main.sh" }));
  await startAgain(t, repo, "skipped the project");
  const again = await t.waitFor("q  quit", 15_000);
  expect(again).toContain("  added");
  expect(ran(added)).toBe(false);
}, T);

test("t trusts the folder and runs its extensions; a changed exec line asks again, marked changed", async () => {
  const { repo, ext } = repoWithExtension();
  const t = await tui.start({ args: ["--cwd", repo], width: 200 });
  await t.waitFor("q  quit", 15_000);
  t.type("t");
  await t.until(() => ran(ext), "the trusted extension to start", 15_000);
  const store = JSON.parse(readFileSync(join(t.home, "trust.json"), "utf8"));
  expect(store.trusted.map((e: { path: string }) => e.path)).toEqual([repo]);
  await quitTui(t);

  writeManifest(ext, { args: ["--changed"] });
  await startAgain(t, repo, "q  quit");
  const s = await t.waitFor("q  quit", 15_000);
  expect(s).toContain(`project extensions in ${repo} are new or changed since the folder was trusted:`);
  expect(s).toContain("evil 6.6.6 (changed)");
  expect(s).toContain(`${join(ext, "main.sh")} --changed`);
  t.type("t");
  await t.until(() => readFileSync(join(ext, "ran"), "utf8").includes("--changed") || null, "the re-approved extension to start", 15_000);
}, T);

test("q quits before anything of the project ran", async () => {
  const { repo, ext } = repoWithExtension();
  const t = await tui.start({ args: ["--cwd", repo], width: 200 });
  await t.waitFor("q  quit", 15_000);
  t.type("q");
  await t.waitFor(/^quit\nshell\$/m, 15_000);
  expect(ran(ext)).toBe(false);
}, T);

test("a trusted folder with an unchanged extension set starts without asking", async () => {
  const { repo, ext } = repoWithExtension();
  const t = await tui.start({ args: ["--cwd", repo], width: 200 });
  await t.waitFor("q  quit", 15_000);
  t.type("t");
  await t.until(() => ran(ext), "the trusted extension to start", 15_000);
  await quitTui(t);
  rmSync(join(ext, "ran"));
  await startAgain(t, repo, "q  quit");
  await t.until(() => ran(ext), "the extension to start again", 15_000);
  expect(t.screen()).not.toContain("q  quit");
}, T);

const MCP_SERVER = join(ROOT, "test", "fixtures", "mcp", "legacy_server.py");

/** A repository whose only project code is one MCP server in .mcp.json, logging each start to `log`. */
function repoWithServer(args: string[] = []): { repo: string; log: string; write: (args: string[]) => void } {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "zot-tui-mcp-trust-")));
  tui.defer(() => rmSync(scratch, { recursive: true, force: true }));
  const repo = join(scratch, "repo");
  mkdirSync(repo);
  const log = join(scratch, "fx.jsonl");
  const write = (a: string[]) =>
    writeFileSync(join(repo, ".mcp.json"), JSON.stringify({ mcpServers: { fx: { command: "python3", args: [MCP_SERVER, ...a], env: { MCP_FIXTURE_LOG: log, TOKEN: "${ZOT_TEST_TOKEN:-none}" } } } }));
  write(args);
  return { repo, log, write };
}

const serverStarted = (log: string) => existsSync(log) && readFileSync(log, "utf8").includes('"initialize"');

test("a folder with only a .mcp.json asks first, showing each server as written; t approves it, and a changed entry asks again marked changed", async () => {
  const { repo, log, write } = repoWithServer();
  const t = await tui.start({ args: ["--cwd", repo], width: 220 });
  const s = await t.waitFor("q  quit", 15_000);
  expect(s).toContain(`${repo} is not a trusted folder, and it has project MCP servers:`);
  expect(s).toContain("  MCP server fx\n");
  expect(s).toContain(`from:         ${join(repo, ".mcp.json")}`);
  expect(s).toContain(`runs:         python3 ${MCP_SERVER}`);
  expect(s).toContain("ZOT_TEST_TOKEN:-none");
  expect(serverStarted(log)).toBe(false);
  t.type("t");
  await t.until(() => serverStarted(log) || null, "the approved server to start", 15_000);
  const store = JSON.parse(readFileSync(join(t.home, "trust.json"), "utf8"));
  expect(Object.keys(store.mcp_servers[repo])).toEqual(["fx"]);
  await quitTui(t);

  write(["--changed"]);
  rmSync(log);
  await startAgain(t, repo, "q  quit");
  const again = await t.waitFor("q  quit", 15_000);
  expect(again).toContain(`project MCP servers in ${repo} are new or changed since the folder was trusted:`);
  expect(again).toContain("MCP server fx (changed)");
  expect(again).toContain(`${MCP_SERVER} --changed`);
  t.type("r");
  const shown = await t.waitFor("skipped project MCP servers", 15_000);
  expect(shown.replace(/\s+/g, " ")).toContain("fx (changed)");
  expect(serverStarted(log)).toBe(false);
}, T);
