// Workspace trust against the built binary: a cloned repository's .zot/extensions must not run,
// disable, shadow or replace anything until the user trusts the folder. The fixture extension
// appends to a "ran" file in its own directory when it starts, so "it did not run" is a file that
// is not there.
import { beforeEach, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, useZotHome } from "./zot.ts";

const MARKER = join(ROOT, "test", "fixtures", "trust", "marker");
const MCP_SERVER = join(ROOT, "test", "fixtures", "mcp", "legacy_server.py");

const e2e = useZotHome({ prefix: "zot-trust-e2e-", homeDir: "home" });
let repo: string;

beforeEach(() => {
  repo = join(e2e.root, "repo");
  mkdirSync(repo);
});

/** Installs the marker extension as `<root>/<name>` with the given manifest fields. */
function markerExt(root: string, name: string, manifest: Record<string, unknown> = {}): string {
  const ext = join(root, name);
  mkdirSync(root, { recursive: true });
  cpSync(MARKER, ext, { recursive: true });
  writeFileSync(join(ext, "extension.json"), JSON.stringify({ name, exec: "./main.sh", ...manifest }));
  return ext;
}

const projectExt = (name: string, manifest: Record<string, unknown> = {}) => markerExt(join(repo, ".zot", "extensions"), name, manifest);
const ran = (ext: string) => existsSync(join(ext, "ran"));
const print = (args: string[] = [], env: Record<string, string> = {}) => e2e.run(["-p", "--provider", "mock", ...args, "hi"], { cwd: repo, env });
const ext = (args: string[]) => e2e.run(["ext", ...args], { cwd: repo });

describe("an untrusted folder", () => {
  test("zot -p in a cloned repository runs none of its extensions and says so in one line naming them and zot ext trust", async () => {
    const evil = projectExt("evil");
    const other = projectExt("other");
    const r = await print();
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("mock: hi\n");
    expect(ran(evil)).toBe(false);
    expect(ran(other)).toBe(false);
    const lines = r.stderr.split("\n").filter((l) => l !== "");
    expect(lines).toEqual([
      `zot: skipped the project extensions of the untrusted folder ${repo}: evil, other; run zot ext trust ${repo} to let them run (or --trust for one run).`,
    ]);
  });

  test("a damaged trust.json trusts nothing, and the warning says why", async () => {
    const evil = projectExt("evil");
    await ext(["trust"]);
    writeFileSync(join(e2e.home, "trust.json"), "{broken");
    const r = await print();
    expect(ran(evil)).toBe(false);
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([
      `zot: skipped the project extensions of the untrusted folder ${repo}: evil; run zot ext trust ${repo} to let them run (or --trust for one run). ${join(e2e.home, "trust.json")} is not valid JSON; fix it or delete it (then trust your folders again with zot ext trust).`,
    ]);
  });

  test("--json and zot rpc skip them too", async () => {
    const evil = projectExt("evil");
    const json = await e2e.run(["--json", "--provider", "mock", "hi"], { cwd: repo });
    expect(json.code).toBe(0);
    expect(json.stderr).toContain("skipped the project extensions");
    const rpc = await e2e.run(["rpc", "--provider", "mock"], { cwd: repo, stdin: "" });
    expect(rpc.stderr).toContain("skipped the project extensions");
    expect(ran(evil)).toBe(false);
  });

  test('a project manifest with "enabled": false and the name of a global extension does not switch the global one off', async () => {
    const global = markerExt(join(e2e.home, "extensions"), "helper");
    projectExt("helper", { enabled: false });
    const r = await print();
    expect(r.code).toBe(0);
    expect(ran(global)).toBe(true);
    const doctor = JSON.parse((await ext(["doctor", "--json"])).stdout);
    expect(doctor.extensions.map((e: { name: string; source: string; status: string }) => [e.name, e.source, e.status])).toEqual([
      ["helper", "project", "untrusted"],
      ["helper", "global", "ready"],
    ]);
  });

  test("a project extension named like a global one neither shadows nor replaces it", async () => {
    const global = markerExt(join(e2e.home, "extensions"), "helper");
    const impostor = projectExt("helper", { args: ["impostor"] });
    await print();
    expect(ran(global)).toBe(true);
    expect(ran(impostor)).toBe(false);
  });

  test("a project entry that links to one of the user's global extensions does not take its place", async () => {
    const global = markerExt(join(e2e.home, "extensions"), "helper");
    mkdirSync(join(repo, ".zot", "extensions"), { recursive: true });
    symlinkSync(global, join(repo, ".zot", "extensions", "helper"));
    const r = await print();
    expect(r.stderr).toBe("");
    expect(ran(global)).toBe(true);
  });

  test("zot ext list and doctor show untrusted project extensions as untrusted and never spawn them", async () => {
    const evil = projectExt("evil");
    const list = await ext(["list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^evil\s+-\s+project\s+untrusted\s/m);
    expect(list.stdout).toContain(`not started: ${repo} is not a trusted folder; run zot ext trust ${repo}`);
    const listJson = JSON.parse((await ext(["list", "--json"])).stdout);
    expect(listJson.extensions[0]).toMatchObject({ name: "evil", state: "untrusted" });
    const doctor = await ext(["doctor"]);
    expect(doctor.stdout).toMatch(/^evil {2}untrusted {2}\(project\)/m);
    // Untrusted is a decision, not a failure.
    expect(doctor.code).toBe(0);
    expect(ran(evil)).toBe(false);
  });

  test("zot ext disable and remove in a cloned repository act on the user's own extension of that name, not the repository's", async () => {
    const global = markerExt(join(e2e.home, "extensions"), "helper");
    const impostor = projectExt("helper");
    expect((await ext(["disable", "helper"])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(global, "extension.json"), "utf8")).enabled).toBe(false);
    expect(JSON.parse(readFileSync(join(impostor, "extension.json"), "utf8")).enabled).toBeUndefined();
  });

  test("zot ext install --project into an untrusted folder says its extensions will not run until trusted", async () => {
    const src = markerExt(join(e2e.root, "src"), "fresh");
    const r = await ext(["install", src, "--project"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${repo} is not a trusted folder, so its project extensions do not run; run zot ext trust ${repo} to let them.`);
  });

  test("--ext naming a project extension's directory still loads it: the user named it", async () => {
    const evil = projectExt("evil");
    const r = await print(["-e", evil]);
    expect(r.code).toBe(0);
    expect(ran(evil)).toBe(true);
  });
});

describe("trusting", () => {
  test("zot ext trust lets the folder's extensions run until zot ext untrust; a subfolder's own code is asked about first", async () => {
    const evil = projectExt("evil");
    const t = await ext(["trust"]);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain(`trusted ${repo} and its subfolders`);
    expect(t.stdout).toContain(`evil  runs: ${join(evil, "main.sh")}`);
    const r = await print();
    expect(r.stderr).toBe("");
    expect(ran(evil)).toBe(true);

    const list = await ext(["trust", "--list"]);
    expect(list.stdout).toStartWith(`${repo}  (since `);

    // A pull adds code to a subfolder of the trusted folder: it does not run unasked.
    const sub = join(repo, "packages", "app");
    const subExt = markerExt(join(sub, ".zot", "extensions"), "subext");
    const mcpLog = join(e2e.root, "sub-mcp.jsonl");
    writeFileSync(
      join(sub, ".mcp.json"),
      JSON.stringify({ mcpServers: { subsrv: { command: "python3", args: [MCP_SERVER], env: { MCP_FIXTURE_LOG: mcpLog } } } }),
    );
    const inSub = await e2e.run(["-p", "--provider", "mock", "hi"], { cwd: sub });
    expect(ran(subExt)).toBe(false);
    expect(existsSync(mcpLog)).toBe(false);
    expect(inSub.stderr.split("\n").filter(Boolean)).toEqual([
      `zot: skipped project MCP servers new or changed since ${repo} was trusted: subsrv (new); run zot ext trust ${sub} to let them run (or --trust for one run).`,
      `zot: skipped project extensions new or changed since ${repo} was trusted: subext (new); run zot ext trust ${sub} to let them run (or --trust for one run).`,
    ]);
    expect((await e2e.run(["ext", "trust"], { cwd: sub })).code).toBe(0);
    const approved = await e2e.run(["-p", "--provider", "mock", "hi"], { cwd: sub });
    expect(approved.stderr).toBe("");
    expect(ran(subExt)).toBe(true);
    expect(readFileSync(mcpLog, "utf8")).toContain('"initialize"');

    expect((await ext(["untrust"])).stdout).toBe(`untrusted ${repo}: its project extensions and MCP servers no longer run\n`);
    writeFileSync(join(evil, "ran"), "");
    const after = await print();
    expect(after.stderr).toContain("skipped the project extensions");
    expect(readFileSync(join(evil, "ran"), "utf8")).toBe("");
    expect((await ext(["trust", "--list"])).stdout).toBe("no trusted folders\n");
  });

  test("zot ext trust DIR trusts another folder; trust.json is 0600", async () => {
    const evil = projectExt("evil");
    const r = await e2e.run(["ext", "trust", repo], { cwd: e2e.home });
    expect(r.code).toBe(0);
    const { statSync } = await import("node:fs");
    expect(statSync(join(e2e.home, "trust.json")).mode & 0o777).toBe(0o600);
    await print();
    expect(ran(evil)).toBe(true);
  });

  test("--trust and ZOT_TRUST_PROJECT=1 trust the folder for one run without recording it", async () => {
    const evil = projectExt("evil", { args: ["started"] });
    const r = await print(["--trust"]);
    expect(r.stderr).toBe("");
    expect(readFileSync(join(evil, "ran"), "utf8").split("\n").filter(Boolean)).toHaveLength(1);
    await print([], { ZOT_TRUST_PROJECT: "1" });
    expect(readFileSync(join(evil, "ran"), "utf8").split("\n").filter(Boolean)).toHaveLength(2);
    expect(existsSync(join(e2e.home, "trust.json"))).toBe(false);
    expect((await print()).stderr).toContain("skipped the project extensions");
    const doctor = await e2e.run(["ext", "doctor", "--json"], { cwd: repo, env: { ZOT_TRUST_PROJECT: "1" } });
    expect(JSON.parse(doctor.stdout).extensions[0]).toMatchObject({ name: "evil", status: "ready" });
  });

  test("the fingerprint covers the code, not the command line: an edited script or a dropped permissions field is a change", async () => {
    const script = projectExt("script");
    const scoped = projectExt("scoped", { permissions: { fs: { read: [] } } });
    await ext(["trust"]);
    writeFileSync(join(script, "main.sh"), readFileSync(join(script, "main.sh"), "utf8") + "\n# now evil\n");
    projectExt("scoped");
    const r = await print();
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([
      `zot: skipped project extensions new or changed since ${repo} was trusted: scoped (changed), script (changed); run zot ext trust ${repo} to let them run (or --trust for one run).`,
    ]);
    expect(ran(script)).toBe(false);
    expect(ran(scoped)).toBe(false);
  });

  test("disabling and enabling a trusted project extension asks nothing again", async () => {
    const tool = projectExt("tool");
    await ext(["trust"]);
    expect((await ext(["disable", "tool"])).code).toBe(0);
    expect((await print()).stderr).toBe("");
    expect(ran(tool)).toBe(false);
    expect((await ext(["enable", "tool"])).code).toBe(0);
    expect((await print()).stderr).toBe("");
    expect(ran(tool)).toBe(true);
  });

  test("a trusted project whose extension set changes skips the new and the changed ones with a warning until trusted again", async () => {
    const kept = projectExt("kept");
    const changing = projectExt("changing");
    await ext(["trust"]);
    projectExt("changing", { args: ["--now-evil"] });
    const added = projectExt("added");
    writeFileSync(join(kept, "ran"), "");
    writeFileSync(join(changing, "ran"), "");

    const r = await print();
    expect(r.code).toBe(0);
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([
      `zot: skipped project extensions new or changed since ${repo} was trusted: added (new), changing (changed); run zot ext trust ${repo} to let them run (or --trust for one run).`,
    ]);
    expect(readFileSync(join(kept, "ran"), "utf8")).toBe("\n");
    expect(readFileSync(join(changing, "ran"), "utf8")).toBe("");
    expect(ran(added)).toBe(false);

    await ext(["trust"]);
    const again = await print();
    expect(again.stderr).toBe("");
    expect(readFileSync(join(changing, "ran"), "utf8")).toBe("--now-evil\n");
    expect(ran(added)).toBe(true);
  });
});

describe("project MCP servers", () => {
  /** A stdio entry for the fixture server that logs to `<root>/<name>.jsonl`, so "it started" is a line there. */
  const entry = (name: string, extra: Record<string, unknown> = {}) => ({
    command: "python3",
    args: [MCP_SERVER],
    env: { MCP_FIXTURE_LOG: join(e2e.root, `${name}.jsonl`) },
    ...extra,
  });
  const writeMcp = (servers: Record<string, unknown>) => writeFileSync(join(repo, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
  const started = (name: string) => {
    const path = join(e2e.root, `${name}.jsonl`);
    return existsSync(path) && readFileSync(path, "utf8").includes('"initialize"');
  };
  const forget = (...names: string[]) => {
    for (const n of names) writeFileSync(join(e2e.root, `${n}.jsonl`), "");
  };
  const stderrLines = (r: { stderr: string }) => r.stderr.split("\n").filter(Boolean);

  test("a trusted project whose .mcp.json gains a server or changes one skips those with one warning naming them, keeps loading the others, until trusted again", async () => {
    writeMcp({ kept: entry("kept"), changing: entry("changing") });
    const t = await ext(["trust"]);
    expect(t.stdout).toContain("its project MCP servers may load (as written in their lists):");
    expect(t.stdout).toContain(`  kept  runs: python3 ${MCP_SERVER}`);
    expect(t.stdout).toContain(`  changing  runs: python3 ${MCP_SERVER}`);
    const first = await print();
    expect(stderrLines(first)).toEqual([]);
    expect(started("kept") && started("changing")).toBe(true);

    writeMcp({
      kept: entry("kept"),
      changing: entry("changing", { env: { MCP_FIXTURE_LOG: join(e2e.root, "changing.jsonl"), NODE_OPTIONS: "--require ./steal.js" } }),
      added: entry("added"),
    });
    forget("kept", "changing");
    const r = await print();
    expect(r.code).toBe(0);
    expect(stderrLines(r)).toEqual([
      `zot: skipped project MCP servers new or changed since ${repo} was trusted: changing (changed), added (new); run zot ext trust ${repo} to let them run (or --trust for one run).`,
    ]);
    expect(started("kept")).toBe(true);
    expect(started("changing")).toBe(false);
    expect(started("added")).toBe(false);
    const list = await e2e.run(["mcp", "list"], { cwd: repo });
    expect(list.stdout).toContain(
      `not loaded: changing from ${join(repo, ".mcp.json")} (changed since the folder was trusted; review it, then zot ext trust lets it load)`,
    );
    expect(list.stdout).toContain(`not loaded: added from ${join(repo, ".mcp.json")} (new since the folder was trusted;`);
    const doctor = await e2e.run(["mcp", "doctor", "--json"], { cwd: repo });
    expect(JSON.parse(doctor.stdout).unapproved.map((u: { name: string; why: string }) => [u.name, u.why])).toEqual([
      ["changing", "changed"],
      ["added", "new"],
    ]);
    // Skipped by trust is not broken: doctor says so as it does for untrusted extensions, and passes.
    expect(JSON.parse(doctor.stdout)).toMatchObject({ ok: true, errors: [] });
    expect(doctor.code).toBe(0);

    // --trust loads everything for the run and records nothing.
    const store = readFileSync(join(e2e.home, "trust.json"), "utf8");
    expect((await print(["--trust"])).stderr).toBe("");
    expect(started("changing") && started("added")).toBe(true);
    expect(readFileSync(join(e2e.home, "trust.json"), "utf8")).toBe(store);

    // Removing a server needs no approval; approving the rest loads them.
    writeMcp({
      kept: entry("kept"),
      changing: entry("changing", { env: { MCP_FIXTURE_LOG: join(e2e.root, "changing.jsonl"), NODE_OPTIONS: "--require ./steal.js" } }),
    });
    await ext(["trust"]);
    forget("kept", "changing");
    expect((await print()).stderr).toBe("");
    expect(started("kept") && started("changing")).toBe(true);

    expect((await ext(["untrust"])).stdout).toBe(`untrusted ${repo}: its project extensions and MCP servers no longer run\n`);
    expect(JSON.parse(readFileSync(join(e2e.home, "trust.json"), "utf8")).mcp_servers).toEqual({});
  });

  test("a trust.json from before MCP prints skips a trusted project's servers as new until zot ext trust approves them", async () => {
    writeMcp({ srv: entry("srv") });
    writeFileSync(
      join(e2e.home, "trust.json"),
      JSON.stringify({ trusted: [{ path: repo, trusted_at: "2026-11-01T00:00:00.000Z" }], projects: { [repo]: {} }, declined: {} }),
      { mode: 0o600 },
    );
    const r = await print();
    expect(stderrLines(r)).toEqual([
      `zot: skipped project MCP servers new or changed since ${repo} was trusted: srv (new); run zot ext trust ${repo} to let them run (or --trust for one run).`,
    ]);
    expect(started("srv")).toBe(false);
    await ext(["trust"]);
    expect((await print()).stderr).toBe("");
    expect(started("srv")).toBe(true);
  });
});
