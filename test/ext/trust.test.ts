import { trustPath } from "../../src/platform/home.ts";
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  declineProject,
  isTrusted,
  listTrusted,
  reviewProject,
  reviewServers,
  serverFingerprint,
  trustDir,
  trustedBy,
  trustMode,
  untrustDir,
  wasDeclined,
  type ExtensionPrint,
  type ServerPrint,
} from "../../src/ext/install/trust.ts";
import { tempDir } from "./cli-helpers.ts";

function setup(): { home: string; project: string } {
  const root = tempDir("zot-trust-");
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(project);
  return { home, project };
}

const hello: ExtensionPrint = { name: "hello", files: { "run.sh": "hello-v1" } };

describe("the trust store", () => {
  test("a folder nobody trusted is untrusted, and so is everything in it", () => {
    const { home, project } = setup();
    expect(isTrusted(home, project)).toBe(false);
    expect(isTrusted(home, join(project, "sub"))).toBe(false);
  });

  test("trusting a folder covers its subdirectories but not its parent or a sibling with a common prefix", () => {
    const { home, project } = setup();
    mkdirSync(join(project, "sub", "deeper"), { recursive: true });
    mkdirSync(`${project}-evil`);
    const r = trustDir(home, project);
    expect(r).toEqual({ ok: true, path: project, already: false });
    expect(isTrusted(home, project)).toBe(true);
    expect(isTrusted(home, join(project, "sub", "deeper"))).toBe(true);
    expect(trustedBy(home, join(project, "sub"))).toBe(project);
    expect(isTrusted(home, join(project, ".."))).toBe(false);
    expect(isTrusted(home, `${project}-evil`)).toBe(false);
  });

  test("trust is keyed by the real path: trusting through a symlink records the folder it points to, reachable by both names", () => {
    const { home, project } = setup();
    const link = join(project, "..", "link");
    symlinkSync(project, link);
    trustDir(home, link);
    expect(listTrusted(home)).toMatchObject({ ok: true, entries: [{ path: project }] });
    expect(isTrusted(home, project)).toBe(true);
    expect(isTrusted(home, link)).toBe(true);
  });

  test("trust.json is written 0600 with no temporary file left behind", () => {
    const { home, project } = setup();
    const old = process.umask(0o000);
    const before = Date.now();
    try {
      trustDir(home, project);
    } finally {
      process.umask(old);
    }
    expect(statSync(trustPath(home)).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(readdirSync(home)).toEqual(["trust.json"]);
    const body = JSON.parse(readFileSync(trustPath(home), "utf8"));
    expect(body.trusted[0].path).toBe(project);
    const at = Date.parse(body.trusted[0].trusted_at);
    expect(new Date(at).toISOString()).toBe(body.trusted[0].trusted_at);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });

  test("trusting twice keeps one entry and says it was already trusted", () => {
    const { home, project } = setup();
    trustDir(home, project);
    expect(trustDir(home, project)).toMatchObject({ ok: true, already: true });
    expect(listTrusted(home)).toMatchObject({ ok: true, entries: [{ path: project }] });
  });

  test("trusting a folder that does not exist is an error naming it", () => {
    const { home, project } = setup();
    const r = trustDir(home, join(project, "nope"));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(join(project, "nope"));
  });

  test("untrust removes the folder's trust; a subdirectory of a trusted folder names the parent to untrust", () => {
    const { home, project } = setup();
    mkdirSync(join(project, "sub"));
    trustDir(home, project);
    const sub = untrustDir(home, join(project, "sub"));
    expect(sub.ok).toBe(false);
    if (!sub.ok) expect(sub.error).toContain(`zot ext untrust ${project}`);
    expect(untrustDir(home, project)).toEqual({ ok: true, path: project });
    expect(isTrusted(home, project)).toBe(false);
    const again = untrustDir(home, project);
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.error).toContain("is not trusted");
  });

  test("a damaged trust.json trusts nothing and says what to do", () => {
    const { home, project } = setup();
    trustDir(home, project);
    writeFileSync(trustPath(home), "{not json");
    expect(isTrusted(home, project)).toBe(false);
    const r = listTrusted(home);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(`${trustPath(home)} is not valid JSON`);
    expect(trustDir(home, project).ok).toBe(false);
  });

  test("a trust.json other users can write is ignored", () => {
    const { home, project } = setup();
    trustDir(home, project);
    chmodSync(trustPath(home), 0o666);
    expect(isTrusted(home, project)).toBe(false);
    const r = listTrusted(home);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain("writable by other users");
  });
});

describe("the per-run override", () => {
  test("--trust or ZOT_TRUST_PROJECT=1 trusts the project for the run; anything else asks the store", () => {
    expect(trustMode(true, {})).toBe("all");
    expect(trustMode(false, { ZOT_TRUST_PROJECT: "1" })).toBe("all");
    expect(trustMode(false, { ZOT_TRUST_PROJECT: "yes" })).toBe("store");
    expect(trustMode(false, {})).toBe("store");
  });
});

describe("reviewing a project's extensions", () => {
  test("an untrusted folder approves none of its extensions", () => {
    const { home, project } = setup();
    const r = reviewProject(home, project, [hello], "store");
    expect([...r.approved]).toEqual([]);
    expect(r.unapproved).toEqual([{ name: "hello", why: "untrusted" }]);
  });

  test("the run override approves everything without writing the store", () => {
    const { home, project } = setup();
    expect([...reviewProject(home, project, [hello], "all").approved]).toEqual(["hello"]);
    expect(() => statSync(trustPath(home))).toThrow();
  });

  test("a folder trusted with its extension set approves exactly that set; a new or changed extension needs approval again", () => {
    const { home, project } = setup();
    trustDir(home, project, [hello]);
    expect([...reviewProject(home, project, [hello], "store").approved]).toEqual(["hello"]);

    const added: ExtensionPrint = { name: "Added", files: { "run.sh": "added" } };
    const changedArgs = { ...hello, files: { "run.sh": "hello-v2" } };
    const r = reviewProject(home, project, [changedArgs, added], "store");
    expect([...r.approved]).toEqual([]);
    expect(r.unapproved).toEqual([
      { name: "hello", why: "changed" },
      { name: "Added", why: "new" },
    ]);

    trustDir(home, project, [changedArgs, added]);
    expect([...reviewProject(home, project, [changedArgs, added], "store").approved].sort()).toEqual(["added", "hello"]);
  });

  test("files an extension adds to its own directory are its data, not a change; an edited or removed file is", () => {
    const { home, project } = setup();
    const tool: ExtensionPrint = { name: "tool", files: { "extension.json": "m1", "run.sh": "r1" } };
    trustDir(home, project, [tool]);
    expect([...reviewProject(home, project, [{ name: "tool", files: { ...tool.files, "cache.json": "c" } }], "store").approved]).toEqual(["tool"]);
    expect(reviewProject(home, project, [{ name: "tool", files: { ...tool.files, "run.sh": "r2" } }], "store").unapproved).toEqual([
      { name: "tool", why: "changed" },
    ]);
    expect(reviewProject(home, project, [{ name: "tool", files: { "extension.json": "m1" } }], "store").unapproved).toEqual([{ name: "tool", why: "changed" }]);
  });

  test("an extension named like an Object property is new, not changed", () => {
    const { home, project } = setup();
    trustDir(home, project, [hello]);
    expect(reviewProject(home, project, [hello, { name: "constructor", files: { "run.sh": "c" } }], "store").unapproved).toEqual([
      { name: "constructor", why: "new" },
    ]);
  });

  test("in a subfolder of a trusted folder, code nobody was shown is new: it needs approval, and none is recorded unseen", () => {
    const { home, project } = setup();
    const sub = join(project, "sub");
    mkdirSync(sub);
    trustDir(home, project, []);
    const r = reviewProject(home, sub, [hello], "store");
    expect([...r.approved]).toEqual([]);
    expect(r.unapproved).toEqual([{ name: "hello", why: "new" }]);
    expect(r.trustedBy).toBe(project);
    expect(reviewProject(home, sub, [hello], "store").unapproved).toEqual([{ name: "hello", why: "new" }]);
    trustDir(home, sub, [hello]);
    expect([...reviewProject(home, sub, [hello], "store").approved]).toEqual(["hello"]);
  });

  test("untrusting a folder forgets the approvals recorded under it", () => {
    const { home, project } = setup();
    trustDir(home, project, [hello]);
    untrustDir(home, project);
    trustDir(home, project, []);
    expect(reviewProject(home, project, [hello], "store").unapproved).toEqual([{ name: "hello", why: "new" }]);
  });

  test("running without a set of extensions is remembered for exactly that set; trusting forgets it", () => {
    const { home, project } = setup();
    expect(wasDeclined(home, project, [hello])).toBe(false);
    expect(declineProject(home, project, [hello])).toEqual({ ok: true, path: project });
    expect(wasDeclined(home, project, [hello])).toBe(true);
    expect(isTrusted(home, project)).toBe(false);
    expect(wasDeclined(home, project, [{ ...hello, files: { "run.sh": "hello-v2" } }])).toBe(false);
    expect(wasDeclined(home, project, [hello, { name: "other", files: { "run.sh": "other" } }])).toBe(false);
    trustDir(home, project, [hello]);
    expect(wasDeclined(home, project, [hello])).toBe(false);
  });
});

describe("reviewing a project's MCP servers", () => {
  const github: ServerPrint = {
    name: "github",
    definition: [{ name: "github", transport: "stdio", command: "npx", args: ["-y", "srv"], env: { TOKEN: "${GITHUB_TOKEN}" }, cwd: null }],
  };
  const remote: ServerPrint = { name: "Remote", definition: [{ name: "Remote", transport: "http", url: "https://mcp.example.test/mcp", headers: {} }] };

  test("trusting a folder with its servers approves exactly them; a new or changed one needs approval again, a removed one nothing", () => {
    const { home, project } = setup();
    trustDir(home, project, [hello], [github]);
    expect([...reviewServers(home, project, [github], "store").approved]).toEqual(["github"]);
    expect(reviewServers(home, project, [], "store").unapproved).toEqual([]);
    const changed: ServerPrint = { name: "github", definition: [{ ...(github.definition as object[])[0], args: ["-y", "evil"] }] };
    expect(reviewServers(home, project, [changed, remote], "store").unapproved).toEqual([
      { name: "github", why: "changed" },
      { name: "Remote", why: "new" },
    ]);
    // The extensions' approvals are their own: the servers' review changes nothing there.
    expect([...reviewProject(home, project, [hello], "store").approved]).toEqual(["hello"]);
    trustDir(home, project, [hello], [changed, remote]);
    expect([...reviewServers(home, project, [changed, remote], "store").approved].sort()).toEqual(["github", "remote"]);
  });

  test("a server's fingerprint ignores the order of keys in its list but not any value", () => {
    const reordered: ServerPrint = {
      name: "github",
      definition: [{ cwd: null, env: { TOKEN: "${GITHUB_TOKEN}" }, args: ["-y", "srv"], command: "npx", transport: "stdio", name: "github" }],
    };
    expect(serverFingerprint(reordered)).toBe(serverFingerprint(github));
    const otherEnv: ServerPrint = {
      name: "github",
      definition: [{ ...(github.definition as object[])[0], env: { TOKEN: "${GITHUB_TOKEN}", NODE_OPTIONS: "--require ./x.js" } }],
    };
    expect(serverFingerprint(otherEnv)).not.toBe(serverFingerprint(github));
  });

  test("an untrusted folder approves none of its servers, and the run override all of them without writing the store", () => {
    const { home, project } = setup();
    expect(reviewServers(home, project, [github], "store").unapproved).toEqual([{ name: "github", why: "untrusted" }]);
    expect([...reviewServers(home, project, [github], "all").approved]).toEqual(["github"]);
    expect(() => statSync(trustPath(home))).toThrow();
  });

  test("a store written before MCP prints treats the trusted projects' servers as new, once", () => {
    const { home, project } = setup();
    mkdirSync(home, { recursive: true });
    writeFileSync(
      trustPath(home),
      JSON.stringify({ trusted: [{ path: project, trusted_at: "2026-11-01T00:00:00.000Z" }], projects: { [project]: { hello: "0" } }, declined: {} }),
      { mode: 0o600 },
    );
    expect(reviewServers(home, project, [github], "store").unapproved).toEqual([{ name: "github", why: "new" }]);
    trustDir(home, project, undefined, [github]);
    expect([...reviewServers(home, project, [github], "store").approved]).toEqual(["github"]);
    const body = JSON.parse(readFileSync(trustPath(home), "utf8"));
    expect(body.projects[project]).toEqual({ hello: "0" });
    expect(Object.keys(body.mcp_servers[project])).toEqual(["github"]);
  });

  test("in a subfolder of a trusted folder, servers nobody was shown are new until that folder is trusted with them", () => {
    const { home, project } = setup();
    const sub = join(project, "sub");
    mkdirSync(sub);
    trustDir(home, project, [], []);
    expect(reviewServers(home, sub, [github], "store").unapproved).toEqual([{ name: "github", why: "new" }]);
    trustDir(home, sub, [], [github]);
    expect([...reviewServers(home, sub, [github], "store").approved]).toEqual(["github"]);
    expect(reviewServers(home, sub, [github, remote], "store").unapproved).toEqual([{ name: "Remote", why: "new" }]);
  });

  test("untrusting forgets the servers approved and declined under the folder", () => {
    const { home, project } = setup();
    trustDir(home, project, [], [github]);
    untrustDir(home, project);
    expect(declineProject(home, project, [], [remote]).ok).toBe(true);
    expect(wasDeclined(home, project, [], [remote])).toBe(true);
    trustDir(home, project, [], []);
    expect(wasDeclined(home, project, [], [remote])).toBe(false);
    expect(reviewServers(home, project, [github], "store").unapproved).toEqual([{ name: "github", why: "new" }]);
  });

  test("running without a set of servers is remembered for exactly that set, apart from the extensions declined", () => {
    const { home, project } = setup();
    declineProject(home, project, [hello]);
    declineProject(home, project, [], [github]);
    expect(wasDeclined(home, project, [hello], [github])).toBe(true);
    expect(wasDeclined(home, project, [hello], [github, remote])).toBe(false);
  });
});
