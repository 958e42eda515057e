// Workspace trust against the built binary: a cloned repository's .zot/extensions must not run,
// disable, shadow or replace anything until the user trusts the folder. The fixture extension
// appends to a "ran" file in its own directory when it starts, so "it did not run" is a file that
// is not there.
import { beforeEach, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, useZotHome } from "./zot.ts";

const MARKER = join(ROOT, "test", "fixtures", "trust", "marker");

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
    expect(lines).toEqual([`zot: skipped the project extensions of the untrusted folder ${repo}: evil, other; run zot ext trust ${repo} to let them run (or --trust for one run).`]);
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
  test("zot ext trust lets the folder's extensions run, in it and in its subfolders, until zot ext untrust", async () => {
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

    const sub = join(repo, "packages", "app");
    const subExt = markerExt(join(sub, ".zot", "extensions"), "subext");
    const inSub = await e2e.run(["-p", "--provider", "mock", "hi"], { cwd: sub });
    expect(inSub.stderr).toBe("");
    expect(ran(subExt)).toBe(true);

    expect((await ext(["untrust"])).stdout).toBe(`untrusted ${repo}: its project extensions no longer run\n`);
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
