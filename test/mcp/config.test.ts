// Server lists in the Claude Code format, from real files: precedence and shadowing, ${VAR}
// expansion, one-sentence errors for bad entries, and the workspace-trust gate for project lists.
import { trustPath } from "../../src/platform/home.ts";
import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { trustDir } from "../../src/ext/install/trust.ts";
import { expandVars, loadConfig, projectServers, type ConfigInput } from "../../src/mcp/config.ts";
import { scratch, useScratch, writeList } from "./helpers.ts";

const s = useScratch();
beforeEach(() => {
  mkdirSync(join(s.project, ".zot"));
});

const input = (o: Partial<ConfigInput> = {}): ConfigInput => ({ files: [], none: false, cwd: s.project, home: s.home, env: {}, trust: "all", ...o });

test("the first definition of a name wins in the order --mcp, .zot/mcp.json, .mcp.json, $ZOT_HOME/mcp.json", () => {
  const flag = writeList(join(s.root, "flag.json"), { one: { command: "a" } });
  writeList(join(s.project, ".zot", "mcp.json"), { ONE: { command: "b" }, two: { command: "b" } });
  writeList(join(s.project, ".mcp.json"), { two: { command: "c" }, three: { type: "http", url: "http://127.0.0.1:1/mcp" } });
  writeList(join(s.home, "mcp.json"), { three: { command: "d" }, four: { command: "d", args: ["x"] } });
  const c = loadConfig(input({ files: [flag] }));
  expect(c.servers.map((x) => [x.name, x.source, x.status])).toEqual([
    ["one", "flag", "enabled"],
    ["ONE", "project", "shadowed"],
    ["two", "project", "enabled"],
    ["two", "project", "shadowed"],
    ["three", "project", "enabled"],
    ["three", "user", "shadowed"],
    ["four", "user", "enabled"],
  ]);
  expect(c.servers[1]!.shadowedBy).toBe(`${flag} (flag)`);
  expect(c.servers[4]!.transport).toEqual({ kind: "http", url: "http://127.0.0.1:1/mcp", headers: {} });
  expect(c.servers[6]!.transport).toEqual({ kind: "stdio", command: "d", args: ["x"], env: {}, cwd: s.project });
});

test("--no-mcp keeps only the --mcp files", () => {
  const flag = writeList(join(s.root, "flag.json"), { one: { command: "a" } });
  writeList(join(s.home, "mcp.json"), { four: { command: "d" } });
  expect(loadConfig(input({ files: [flag], none: true })).servers.map((x) => x.name)).toEqual(["one"]);
});

test("project lists of an untrusted folder are not read, only named", () => {
  writeList(join(s.project, ".mcp.json"), { evil: { command: "rm" } });
  writeList(join(s.home, "mcp.json"), { mine: { command: "ok" } });
  const c = loadConfig(input({ trust: "store" }));
  expect(c.servers.map((x) => x.name)).toEqual(["mine"]);
  expect(c.untrusted).toEqual([join(s.project, ".mcp.json")]);
});

test("${VAR} and ${VAR:-default} expand in command, args, env, url and headers", () => {
  writeList(join(s.home, "mcp.json"), {
    a: { command: "${BIN}", args: ["--dir", "${DIR:-/tmp}"], env: { TOKEN: "${TOKEN}" }, cwd: "sub" },
    b: { type: "http", url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
  });
  const c = loadConfig(input({ env: { BIN: "srv", TOKEN: "t0k", HOST: "example.test" } }));
  expect(c.servers[0]!.transport).toEqual({ kind: "stdio", command: "srv", args: ["--dir", "/tmp"], env: { TOKEN: "t0k" }, cwd: join(s.project, "sub") });
  expect(c.servers[1]!.transport).toEqual({ kind: "http", url: "https://example.test/mcp", headers: { Authorization: "Bearer t0k" } });
});

test("an unset variable without a default makes that server invalid, naming the variable and the field", () => {
  expect(() => expandVars("${NOPE}", {}, "headers.Authorization")).toThrow(
    "headers.Authorization uses ${NOPE}, which is not set; set it in the environment or give a default as ${NOPE:-value}",
  );
  const path = writeList(join(s.home, "mcp.json"), { a: { type: "http", url: "http://x/${NOPE}" }, b: { command: "fine" } });
  const c = loadConfig(input());
  expect(c.servers[0]).toMatchObject({
    status: "invalid",
    error: `MCP server "a" in ${path}: url uses \${NOPE}, which is not set; set it in the environment or give a default as \${NOPE:-value}`,
  });
  expect(c.servers[1]!.status).toBe("enabled");
});

test("bad entries are invalid with a sentence saying what is wrong; disabled ones are kept as disabled", () => {
  const path = writeList(join(s.home, "mcp.json"), {
    "bad name!": { command: "x" },
    nocmd: { args: [] },
    badargs: { command: "x", args: "no" },
    sse: { type: "sse", url: "http://x/sse" },
    weird: { type: "carrier-pigeon" },
    slow: { command: "x", timeout: -1 },
    off: { command: "x", disabled: true },
    off2: { command: "x", enabled: false },
  });
  const byName = new Map(loadConfig(input()).servers.map((x) => [x.name, x]));
  const err = (n: string) => byName.get(n)!.error!.replace(`MCP server "${n}" in ${path}: `, "");
  expect(err("bad name!")).toBe("names are 1–64 characters from letters, digits, ., _ and -, starting with a letter or digit");
  expect(err("nocmd")).toBe('a stdio server needs a "command"');
  expect(err("badargs")).toBe('"args" must be an array of strings');
  expect(err("sse")).toBe('the HTTP+SSE transport is deprecated and zot does not speak it; if the server offers Streamable HTTP, use "type": "http"');
  expect(err("weird")).toBe('unknown "type" "carrier-pigeon" (use "stdio" or "http")');
  expect(err("slow")).toBe('"timeout" must be a positive number of milliseconds');
  expect(byName.get("off")!.status).toBe("disabled");
  expect(byName.get("off2")!.status).toBe("disabled");
});

test("an unreadable list is one error naming the file; a missing --mcp file is an error, a missing user list is not", () => {
  writeFileSync(join(s.home, "mcp.json"), "{ not json");
  const c = loadConfig(input({ files: [join(s.root, "missing.json")] }));
  expect(c.errors).toHaveLength(2);
  expect(c.errors[0]).toBe(`the MCP server list ${join(s.root, "missing.json")} does not exist`);
  expect(c.errors[1]).toStartWith(`the MCP server list ${join(s.home, "mcp.json")} is not valid JSON (`);
  expect(c.errors[1]).toEndWith("); fix or remove it");
  const clean = scratch();
  try {
    expect(loadConfig(input({ cwd: clean.project, home: clean.home })).errors).toEqual([]);
  } finally {
    clean.cleanup();
  }
});

test("deferShare at the top of a list sets the share of the context above which tools are deferred", () => {
  writeList(join(s.home, "mcp.json"), {}, { deferShare: 0.25 });
  expect(loadConfig(input()).deferShare).toBe(0.25);
  writeList(join(s.home, "mcp.json"), {});
  expect(loadConfig(input()).deferShare).toBe(0.1);
});

test("values ${VAR} expanded to are collected for masking, paths aside", () => {
  writeList(join(s.home, "mcp.json"), { a: { command: "srv", args: ["--key", "${KEY}", "--dir", "${HOME}"], env: { T: "${TOKEN}" } } });
  const c = loadConfig(input({ env: { KEY: "key-1234567890", HOME: "/home/someone", TOKEN: "tok-abcdefgh" } }));
  expect(c.expanded.sort()).toEqual(["key-1234567890", "tok-abcdefgh"]);
});

/** Trusts the project with its server lists as they are now, the way `zot ext trust` does. */
const trustAsIs = () =>
  trustDir(
    s.home,
    s.project,
    [],
    projectServers(s.project).map((p) => p.print),
  );
const stored = (c: ReturnType<typeof loadConfig>) => c.servers.filter((x) => x.source === "project").map((x) => [x.name, x.status]);

test("in a trusted folder a changed command, args, env, cwd, url, headers or OAuth client, or a new server, is skipped and named until approved; the others load", () => {
  const list = join(s.project, ".mcp.json");
  const servers = {
    local: { command: "srv", args: ["--one"], env: { K: "v" } },
    remote: { type: "http", url: "http://127.0.0.1:1/mcp", headers: { H: "1" } },
  };
  writeList(list, servers);
  trustAsIs();
  const store = input({ trust: "store" });
  expect(stored(loadConfig(store))).toEqual([
    ["local", "enabled"],
    ["remote", "enabled"],
  ]);
  for (const local of [{ command: "other" }, { args: ["--two"] }, { env: { K: "w" } }, { env: { K: "v", LD_PRELOAD: "/x.so" } }, { cwd: "sub" }]) {
    writeList(list, { ...servers, local: { ...servers.local, ...local } });
    const c = loadConfig(store);
    expect(stored(c)).toEqual([["remote", "enabled"]]);
    expect(c.unapproved).toEqual([{ name: "local", why: "changed", file: list }]);
  }
  for (const remote of [{ url: "http://127.0.0.1:2/mcp" }, { headers: { H: "2" } }, { oauth: { clientId: "someone-else" } }]) {
    writeList(list, { ...servers, remote: { ...servers.remote, ...remote } });
    expect(loadConfig(store).unapproved).toEqual([{ name: "remote", why: "changed", file: list }]);
  }
  // Settings that do not change what runs need no approval.
  writeList(list, { ...servers, local: { ...servers.local, timeout: 5000, defer: true } });
  expect(loadConfig(store).unapproved).toEqual([]);
  writeList(list, { ...servers, added: { command: "new" } });
  const added = loadConfig(store);
  expect(added.unapproved).toEqual([{ name: "added", why: "new", file: list }]);
  expect(stored(added)).toEqual([
    ["local", "enabled"],
    ["remote", "enabled"],
  ]);
  writeList(list, { local: servers.local });
  const removed = loadConfig(store);
  expect(removed.unapproved).toEqual([]);
  expect(stored(removed)).toEqual([["local", "enabled"]]);
});

test("a server is fingerprinted as written: what ${VAR} expands to never reaches trust.json, and a new value is no change", () => {
  writeList(join(s.project, ".mcp.json"), { api: { type: "http", url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${API_TOKEN}" } } });
  trustAsIs();
  const first = loadConfig(input({ trust: "store", env: { HOST: "example.test", API_TOKEN: "s3cret-token-1" } }));
  expect(first.servers[0]).toMatchObject({ name: "api", status: "enabled", transport: { headers: { Authorization: "Bearer s3cret-token-1" } } });
  const rotated = loadConfig(input({ trust: "store", env: { HOST: "example.test", API_TOKEN: "s3cret-token-2" } }));
  expect(rotated.unapproved).toEqual([]);
  expect(readFileSync(trustPath(s.home), "utf8")).not.toContain("s3cret");
});

test("a later definition of a name in the project lists is part of its approval: it would load once the first is removed", () => {
  writeList(join(s.project, ".zot", "mcp.json"), { dup: { command: "first" } });
  writeList(join(s.project, ".mcp.json"), { dup: { command: "second" } });
  trustAsIs();
  expect(stored(loadConfig(input({ trust: "store" })))).toEqual([
    ["dup", "enabled"],
    ["dup", "shadowed"],
  ]);
  writeList(join(s.project, ".mcp.json"), { dup: { command: "swapped" } });
  const c = loadConfig(input({ trust: "store" }));
  expect(c.servers.filter((x) => x.name === "dup")).toEqual([]);
  expect(c.unapproved).toEqual([{ name: "dup", why: "changed", file: join(s.project, ".zot", "mcp.json") }]);
});

test("an entry that can never run is not reviewed: it stays invalid with its sentence", () => {
  writeList(join(s.project, ".mcp.json"), { ok: { command: "x" }, "bad name!": { command: "x" }, old: { type: "sse", url: "http://x/sse" } });
  trustAsIs();
  writeList(join(s.project, ".mcp.json"), { ok: { command: "x" }, "bad name!": { command: "y" }, old: { type: "sse", url: "http://y/sse" } });
  const c = loadConfig(input({ trust: "store" }));
  expect(c.unapproved).toEqual([]);
  expect(stored(c)).toEqual([
    ["ok", "enabled"],
    ["bad name!", "invalid"],
    ["old", "invalid"],
  ]);
});
