// The workspace-trust question in a real terminal: shown before anything of the project runs, with
// each extension's name, command line and capabilities; trust / run without / quit.
import { expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, type Tmux, useTmux } from "./helpers/tmux.ts";
import { tempDir } from "../helpers/temp.ts";

const MARKER = join(ROOT, "test", "fixtures", "trust", "marker");
const T = 40_000;

const tui = useTmux();

/** A repository with one project extension, `evil`, that records each start in its "ran" file. */
function repoWithExtension(manifest: Record<string, unknown> = {}): { repo: string; ext: string } {
  const scratch = tempDir("zot-tui-trust-");
  tui.defer(() => rmSync(scratch, { recursive: true, force: true }));
  const repo = join(scratch, "repo");
  const ext = join(repo, ".zot", "extensions", "evil");
  mkdirSync(join(repo, ".zot", "extensions"), { recursive: true });
  cpSync(MARKER, ext, { recursive: true });
  writeManifest(ext, manifest);
  // A repository, as a cloned project is: the marker's "ran" file is its data, which git ignores.
  writeFileSync(join(repo, ".gitignore"), "ran\n");
  const git = Bun.spawnSync(["git", "-C", repo, "init", "-q"], { stdout: "ignore", stderr: "pipe" });
  if (git.exitCode !== 0) throw new Error(`git init failed: ${git.stderr}`);
  return { repo, ext };
}

function writeManifest(ext: string, manifest: Record<string, unknown>): void {
  writeFileSync(
    join(ext, "extension.json"),
    JSON.stringify({ name: "evil", version: "6.6.6", exec: "./main.sh", description: "totally harmless", ...manifest }),
  );
}

const ran = (ext: string) => existsSync(join(ext, "ran"));

/** Quits the running TUI with ctrl+c twice and waits for the shell. */
async function quitTui(tm: Tmux): Promise<void> {
  await tm.waitFor("Ask anything", 15_000);
  tm.keys("C-c");
  tm.keys("C-c");
  await tm.waitFor(/shell\$\s*$/, 15_000);
}

/** Clears the screen (until `gone` is off it) and starts zot in `repo` again; `env` goes before the command ("TERM=dumb"). */
async function startAgain(tm: Tmux, repo: string, gone: string, env = ""): Promise<void> {
  tm.keys("C-l");
  await tm.waitGone(gone, 15_000);
  tm.send(`${env ? `${env} ` : ""}${ROOT}/dist/zot --provider mock --cwd ${repo}`);
}

/** A repository with one project extension, trusted with `t` at the start-up question, after which zot has quit. */
async function trustedOnce(): Promise<{ repo: string; ext: string; t: Tmux }> {
  const { repo, ext } = repoWithExtension();
  const t = await tui.start({ args: ["--cwd", repo], width: 200 });
  await t.waitFor("q  quit", 15_000);
  t.type("t");
  await t.until(() => ran(ext), "the trusted extension to start", 15_000);
  await quitTui(t);
  return { repo, ext, t };
}

test(
  "an untrusted folder with project extensions asks first, showing what would run; r runs zot without them",
  async () => {
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
  },
  T,
);

test(
  "t trusts the folder and runs its extensions; a changed exec line asks again, marked changed",
  async () => {
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
  },
  T,
);

test(
  "q quits before anything of the project ran",
  async () => {
    const { repo, ext } = repoWithExtension();
    const t = await tui.start({ args: ["--cwd", repo], width: 200 });
    await t.waitFor("q  quit", 15_000);
    t.type("q");
    await t.waitFor(/^quit\nshell\$/m, 15_000);
    expect(ran(ext)).toBe(false);
  },
  T,
);

test(
  "a trusted folder with an unchanged extension set starts without asking",
  async () => {
    const { repo, ext, t } = await trustedOnce();
    rmSync(join(ext, "ran"));
    await startAgain(t, repo, "q  quit");
    await t.until(() => ran(ext), "the extension to start again", 15_000);
    expect(t.screen()).not.toContain("q  quit");
  },
  T,
);

test(
  "line mode (TERM=dumb) has no /trust, so declining a new extension there names zot ext trust",
  async () => {
    const { repo, t } = await trustedOnce();
    const added = join(repo, ".zot", "extensions", "added");
    cpSync(MARKER, added, { recursive: true });
    writeFileSync(join(added, "extension.json"), JSON.stringify({ name: "added", version: "1.0.0", exec: "./main.sh" }));
    await startAgain(t, repo, "Ask anything", "TERM=dumb");
    await t.waitFor("q  quit", 15_000);
    t.type("r");
    const s = await t.waitFor("Line mode (TERM=dumb)", 15_000);
    expect(s).toContain("running without them; zot will not ask about them again (zot ext trust lets them run)");
    expect(s).not.toContain("/trust");
    expect(ran(added)).toBe(false);
    t.send("/exit");
    await t.waitFor(/shell\$\s*$/, 15_000);
    // The next start does not ask again; its notice names the command line mode can use.
    await startAgain(t, repo, "running without them", "TERM=dumb");
    // The notices follow the banner in writes of their own: the screen is read once the notice is on it.
    const again = await t.waitFor(/to let\s+them\s+run/, 15_000);
    expect(again).toContain("Line mode (TERM=dumb)");
    expect(again.replace(/\s+/g, " ")).toContain(`run zot ext trust ${repo} to let them run`);
    expect(again).not.toContain("/trust");
    t.send("/exit");
  },
  T,
);

const MCP_SERVER = join(ROOT, "test", "fixtures", "mcp", "legacy_server.py");

/** A repository whose only project code is one MCP server in .mcp.json, logging each start to `log`. */
function repoWithServer(args: string[] = []): { repo: string; log: string; write: (args: string[]) => void } {
  const scratch = tempDir("zot-tui-mcp-trust-");
  tui.defer(() => rmSync(scratch, { recursive: true, force: true }));
  const repo = join(scratch, "repo");
  mkdirSync(repo);
  const log = join(scratch, "fx.jsonl");
  const write = (a: string[]) =>
    writeFileSync(
      join(repo, ".mcp.json"),
      JSON.stringify({ mcpServers: { fx: { command: "python3", args: [MCP_SERVER, ...a], env: { MCP_FIXTURE_LOG: log, TOKEN: "${ZOT_TEST_TOKEN:-none}" } } } }),
    );
  write(args);
  return { repo, log, write };
}

const serverStarted = (log: string) => existsSync(log) && readFileSync(log, "utf8").includes('"initialize"');

test(
  "a folder with only a .mcp.json asks first, showing each server as written; t approves it, and a changed entry asks again marked changed",
  async () => {
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
  },
  T,
);

// /trust: the same decision without leaving the TUI, for project code that changed while it runs.

const GREETER = join(ROOT, "test", "fixtures", "trust", "greeter");

/** Starts zot in `repo` and answers the start-up question with t, so the folder is trusted as it is now. */
async function startTrusted(repo: string, ready: () => boolean): Promise<Tmux> {
  const t = await tui.start({ args: ["--cwd", repo], width: 200, height: 40 });
  await t.waitFor("q  quit", 15_000);
  t.type("t");
  await t.until(ready, "the trusted project code to start", 15_000);
  await t.waitFor("Ask anything", 15_000);
  return t;
}

/** Runs a slash command as typed. */
function command(t: Tmux, line: string): void {
  t.send(line);
}

const flat = (s: string) => s.replace(/\s+/g, " ");
const store = (t: Tmux) => JSON.parse(readFileSync(join(t.home, "trust.json"), "utf8"));

test(
  "a project extension added while zot runs is skipped by /reload-ext naming /trust; /trust lists it, and trusting records it and brings its command in",
  async () => {
    const { repo, ext } = repoWithExtension();
    const t = await startTrusted(repo, () => ran(ext));
    const greeter = join(repo, ".zot", "extensions", "greeter");
    cpSync(GREETER, greeter, { recursive: true });

    command(t, "/reload-ext");
    const skipped = flat(await t.waitFor("type /trust to review them", 15_000));
    expect(skipped).toContain(
      `skipped project extensions new or changed since ${repo} was trusted: greeter (new); type /trust to review them and let them run.`,
    );
    expect(skipped).not.toContain("zot ext trust");

    command(t, "/trust");
    const listed = await t.waitFor("Trust this folder?", 15_000);
    expect(listed).toContain(`zot: project extensions in ${repo} are new or changed since the folder was trusted:`);
    expect(listed).toContain("greeter 1.0.0 (new)");
    expect(listed).toContain("a project command that joins once the folder is trusted");
    expect(listed).toContain(`runs:         ${join(greeter, "greeter.py")}`);
    expect(listed).toContain("capabilities: none declared; it would run as you");
    // Only what is pending: the approved extension is not asked about again.
    expect(listed).not.toContain("evil 6.6.6");
    expect(listed).toContain("t  trust this folder (and its subfolders) and reload");
    expect(listed).toContain("c  cancel");
    t.type("t");
    const done = flat(await t.waitFor(`Trusted ${repo} and its subfolders.`, 15_000));
    expect(done).toContain(`Trusted ${repo} and its subfolders. Reloaded extensions: 2 running.`);
    expect(done).not.toContain("greeter (new)");
    expect(Object.keys(store(t).projects[repo]).sort()).toEqual(["evil", "greeter"]);

    command(t, "/greet");
    await t.waitFor("[greeter] hello from the trusted project", 15_000);

    command(t, "/trust");
    await t.waitFor(`${repo} is trusted and none of its project code is pending.`, 15_000);
  },
  T,
);

test(
  "cancel in /trust records nothing, and the new extension stays off",
  async () => {
    const { repo, ext } = repoWithExtension();
    const t = await startTrusted(repo, () => ran(ext));
    const before = readFileSync(join(t.home, "trust.json"), "utf8");
    const added = join(repo, ".zot", "extensions", "added");
    cpSync(MARKER, added, { recursive: true });
    writeFileSync(join(added, "extension.json"), JSON.stringify({ name: "added", exec: "./main.sh" }));

    command(t, "/trust");
    const listed = await t.waitFor("Trust this folder?", 15_000);
    expect(listed).toContain("  added (new)\n");
    t.keys("Escape");
    await t.waitFor("Nothing was trusted; the project code stays off.", 15_000);
    expect(readFileSync(join(t.home, "trust.json"), "utf8")).toBe(before);

    command(t, "/trust");
    await t.waitFor("Trust this folder?", 15_000);
    t.type("c");
    await t.waitGone("Trust this folder?", 15_000);
    command(t, "/reload-ext");
    await t.waitFor("added (new); type /trust", 15_000);
    expect(ran(added)).toBe(false);
    expect(readFileSync(join(t.home, "trust.json"), "utf8")).toBe(before);
  },
  T,
);

test(
  "an untrusted folder zot runs without can be trusted from /trust, and its extensions start",
  async () => {
    const { repo, ext } = repoWithExtension();
    const t = await tui.start({ args: ["--cwd", repo], width: 200, height: 40 });
    await t.waitFor("q  quit", 15_000);
    t.type("r");
    const notice = flat(await t.waitFor("type /trust to review them", 15_000));
    expect(notice).toContain(`skipped the project extensions of the untrusted folder ${repo}: evil; type /trust to review them and let them run.`);

    command(t, "/trust");
    const listed = await t.waitFor("Trust this folder?", 15_000);
    expect(listed).toContain(`zot: ${repo} is not a trusted folder, and it has project extensions:`);
    expect(listed).toContain("evil 6.6.6");
    expect(ran(ext)).toBe(false);
    t.keys("Enter");
    await t.until(() => ran(ext), "the extension to start once trusted", 15_000);
    expect(store(t).trusted.map((e: { path: string }) => e.path)).toEqual([repo]);
    expect(Object.keys(store(t).projects[repo])).toEqual(["evil"]);
  },
  T,
);

test(
  "a .mcp.json changed while zot runs is skipped by /reload-ext naming /trust; trusting from /trust starts the changed server",
  async () => {
    const { repo, log, write } = repoWithServer();
    const t = await startTrusted(repo, () => serverStarted(log));
    write(["--changed"]);
    rmSync(log);

    command(t, "/reload-ext");
    const skipped = flat(await t.waitFor("type /trust to review them", 15_000));
    expect(skipped).toContain(
      `skipped project MCP servers new or changed since ${repo} was trusted: fx (changed); type /trust to review them and let them run.`,
    );
    expect(serverStarted(log)).toBe(false);
    const before = store(t).mcp_servers[repo].fx;

    command(t, "/trust");
    const listed = await t.waitFor("Trust this folder?", 15_000);
    expect(listed).toContain(`zot: project MCP servers in ${repo} are new or changed since the folder was trusted:`);
    expect(listed).toContain("MCP server fx (changed)");
    expect(listed).toContain(`runs:         python3 ${MCP_SERVER} --changed`);
    t.type("t");
    await t.until(() => serverStarted(log) || null, "the changed server to start", 15_000);
    expect(store(t).mcp_servers[repo].fx).not.toBe(before);
  },
  T,
);

test(
  "/trust in a folder without project code says there is nothing to trust",
  async () => {
    const t = await tui.start({ width: 200 });
    await t.waitFor("Ask anything", 15_000);
    command(t, "/trust");
    await t.waitFor(`${realpathSync(t.cwd)} has no project extensions or MCP servers: there is nothing to trust.`, 15_000);
    expect(existsSync(join(t.home, "trust.json"))).toBe(false);
  },
  T,
);

test(
  "code a pull adds to a subfolder of a trusted folder is asked about before it runs there",
  async () => {
    const { repo, ext } = repoWithExtension();
    const t = await startTrusted(repo, () => ran(ext));
    await quitTui(t);
    const sub = join(repo, "packages", "app");
    const added = join(sub, ".zot", "extensions", "x");
    mkdirSync(join(sub, ".zot", "extensions"), { recursive: true });
    cpSync(MARKER, added, { recursive: true });
    writeFileSync(join(added, "extension.json"), JSON.stringify({ name: "x", exec: "./main.sh" }));
    const log = join(repo, "..", "sub-mcp.jsonl");
    writeFileSync(
      join(sub, ".mcp.json"),
      JSON.stringify({ mcpServers: { subsrv: { command: "python3", args: [MCP_SERVER], env: { MCP_FIXTURE_LOG: log } } } }),
    );
    t.send(`${join(ROOT, "dist", "zot")} --provider mock --cwd ${sub}`);
    const s = flat(await t.waitFor(`MCP servers in ${sub} are new or changed since the folder was trusted:`, 15_000));
    expect(s).toContain(`zot: project extensions and MCP servers in ${sub} are new or changed since the folder was trusted:`);
    expect(s).toContain("x (new)");
    expect(s).toContain("MCP server subsrv (new)");
    expect(ran(added)).toBe(false);
    expect(existsSync(log)).toBe(false);
    t.type("q");
    await t.waitFor(/shell\$\s*$/, 15_000);
    expect(ran(added)).toBe(false);
    expect(existsSync(log)).toBe(false);
  },
  T,
);
