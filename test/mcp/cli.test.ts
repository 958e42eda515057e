// `zot mcp …` in-process with captured output, and `zot ext doctor` showing MCP servers: the same
// error and JSON conventions as `zot ext`.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runExtCli } from "../../src/cli/ext.ts";
import { trustDir } from "../../src/ext/install/trust.ts";
import { runMcpCli } from "../../src/cli/mcp.ts";
import { projectServers } from "../../src/mcp/config.ts";
import { HOSTILE, LEGACY, MODERN, useScratch, writeList } from "./helpers.ts";

const s = useScratch();

async function run(argv: string[], which: "mcp" | "ext" = "mcp"): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io = {
    env: { ...process.env, ZOT_HOME: s.home, ZOT_TRUST_PROJECT: undefined },
    cwd: s.project,
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    isTTY: false,
    stdin: null,
  };
  const code = await (which === "mcp" ? runMcpCli(argv, io) : runExtCli(argv, io));
  return { code, out, err };
}

const userList = () => JSON.parse(readFileSync(join(s.home, "mcp.json"), "utf8"));

test("add writes a stdio server after -- and an HTTP server with --url and --header to $ZOT_HOME/mcp.json", async () => {
  expect(await run(["add", "fs", "--env", "ROOT=/tmp", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"])).toEqual({
    code: 0,
    out: `added MCP server fs to ${join(s.home, "mcp.json")}\n`,
    err: "",
  });
  expect((await run(["add", "remote", "--url", "https://mcp.example.test/mcp", "--header", "Authorization: Bearer ${TOKEN}"])).code).toBe(0);
  expect((await run(["add", "--transport", "http", "linear", "https://mcp.linear.test/mcp"])).code).toBe(0);
  expect((await run(["add", "-t", "sse", "old", "https://x.test/sse"])).err).toBe(
    'zot: --transport must be http or stdio (got "sse"); zot does not speak the deprecated sse transport.\n',
  );
  expect(userList().mcpServers).toEqual({
    fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], env: { ROOT: "/tmp" } },
    remote: { type: "http", url: "https://mcp.example.test/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
    linear: { type: "http", url: "https://mcp.linear.test/mcp" },
  });
});

test("add refuses a taken name without --force, bad names, and a server with nothing to run", async () => {
  await run(["add", "fs", "--", "a"]);
  expect(await run(["add", "FS", "--", "b"])).toEqual({
    code: 1,
    out: "",
    err: `zot: an MCP server named "FS" is already in ${join(s.home, "mcp.json")}; pass --force to replace it, or zot mcp remove FS first.\n`,
  });
  expect((await run(["add", "FS", "--force", "--", "b"])).code).toBe(0);
  expect(Object.keys(userList().mcpServers)).toEqual(["FS"]);
  expect((await run(["add", "no way", "--", "x"])).err).toBe(
    'zot: "no way" is not a valid MCP server name; use 1–64 letters, digits, ., _ or -, starting with a letter or digit.\n',
  );
  expect((await run(["add", "empty"])).err).toBe(
    "zot: nothing to run for empty: give a command after -- (zot mcp add empty -- npx -y PACKAGE) or --url URL.\n",
  );
  expect((await run(["add", "x", "npx", "-y", "pkg"])).err).toBe(
    "zot: unknown option -y for zot mcp add (put the server's command after --, e.g. zot mcp add x -- npx -y PACKAGE); usage: zot mcp add <name> [--project] [--force] [--env K=V]... -- <command> [args...] | add <name> --url URL [--header K:V]... [--client-id ID] [--client-secret S] [--callback-port N]\n",
  );
});

test("add --client-id writes the server's oauth entry in Claude Code's shape, and refuses OAuth flags that do not fit", async () => {
  expect(
    (
      await run([
        "add",
        "web",
        "--url",
        "https://mcp.example.test/mcp",
        "--client-id",
        "zot-cli",
        "--client-secret",
        "${WEB_SECRET}",
        "--callback-port",
        "8765",
      ])
    ).code,
  ).toBe(0);
  expect(userList().mcpServers.web).toEqual({
    type: "http",
    url: "https://mcp.example.test/mcp",
    oauth: { client_id: "zot-cli", client_secret: "${WEB_SECRET}", callback_port: 8765 },
  });
  expect((await run(["add", "a", "--url", "https://x.test/mcp", "--client-secret", "s"])).err).toBe(
    "zot: --client-secret needs --client-id (the client the secret belongs to).\n",
  );
  expect((await run(["add", "b", "--url", "https://x.test/mcp", "--callback-port", "70000"])).err).toBe(
    'zot: --callback-port must be a port number (got "70000").\n',
  );
  expect((await run(["add", "c", "--client-id", "x", "--", "npx", "pkg"])).err).toBe(
    "zot: --client-id, --client-secret and --callback-port are for HTTP servers (--url).\n",
  );
});

test("add keeps the rest of the file and --project writes ./.mcp.json", async () => {
  writeFileSync(join(s.project, ".mcp.json"), JSON.stringify({ mcpServers: { old: { command: "o" } }, other: 1 }));
  expect((await run(["add", "new", "--project", "--", "n"])).code).toBe(0);
  expect(JSON.parse(readFileSync(join(s.project, ".mcp.json"), "utf8"))).toEqual({
    mcpServers: { old: { command: "o" }, new: { command: "n", args: [] } },
    other: 1,
  });
});

test("remove deletes one server and names the file when there is none to remove", async () => {
  await run(["add", "a", "--", "x"]);
  await run(["add", "b", "--", "y"]);
  expect(await run(["remove", "A"])).toEqual({ code: 0, out: `removed MCP server a from ${join(s.home, "mcp.json")}\n`, err: "" });
  expect(Object.keys(userList().mcpServers)).toEqual(["b"]);
  expect((await run(["remove", "zz"])).err).toBe(
    `zot: no MCP server named "zz" in ${join(s.home, "mcp.json")} (project servers: zot mcp remove zz --project); run zot mcp list to see the configured servers.\n`,
  );
});

test("list shows each server with its scope and state, starts nothing, and names untrusted project lists", async () => {
  writeList(join(s.home, "mcp.json"), { fx: { command: "python3", args: [LEGACY] }, off: { command: "x", disabled: true } });
  writeList(join(s.project, ".mcp.json"), { proj: { command: "p" } });
  const r = await run(["list"]);
  expect(r.code).toBe(0);
  expect(r.out).toContain(`not read: ${join(s.project, ".mcp.json")} (the folder is not trusted; zot ext trust ${s.project} lets it load)`);
  expect(r.out).toContain(`fx    user   stdio  enabled   python3 ${LEGACY}`);
  expect(r.out).toContain("off   user   stdio  disabled  x");
  const trusted = trustDir(
    s.home,
    s.project,
    [],
    projectServers(s.project).map((p) => p.print),
  );
  expect(trusted.ok).toBe(true);
  const json = JSON.parse((await run(["list", "--json"])).out);
  expect(json.servers.map((x: { name: string; scope: string }) => `${x.name}:${x.scope}`)).toEqual(["proj:project", "fx:user", "off:user"]);
  expect(json.untrusted).toEqual([]);
});

test("doctor starts every server, reports era, tools, prompts, resources and log, and shuts them down", async () => {
  writeList(join(s.home, "mcp.json"), { old: { command: "python3", args: [LEGACY] }, new: { command: "python3", args: [MODERN] } });
  const r = await run(["doctor", "--json"]);
  expect(r.code).toBe(0);
  const report = JSON.parse(r.out);
  expect(report.ok).toBe(true);
  expect(
    report.servers.map((x: { name: string; era: string; protocol_version: string; status: string }) => [x.name, x.status, x.era, x.protocol_version]),
  ).toEqual([
    ["old", "ready", "legacy", "2025-11-25"],
    ["new", "ready", "modern", "2026-07-28"],
  ]);
  expect(report.servers[1]).toMatchObject({
    server_info: { name: "modern-fixture", version: "2.0.0" },
    prompts: ["mcp__new__review", "mcp__new__hello"],
    resources: ["fixture://readme"],
    log: join(s.home, "logs", "mcp-new.log"),
  });
  expect(report.servers[1].tools).toContainEqual({ name: "mcp__new__dotted_name", remote: "dotted.name", deferred: false });
  const human = (await run(["doctor"])).out;
  expect(human).toContain("mcp:old  ready  (user)  MCP 2025-11-25");
  expect(human).toContain("  prompts   /mcp__old__review, /mcp__old__hello");
  expect(human).toEndWith("ok: 2 MCP server(s) (2 ready)\n");
});

test("doctor fails with the server's error and its stderr log path", async () => {
  writeList(join(s.home, "mcp.json"), {
    gone: { command: "definitely-not-a-command-zot" },
    quiet: { command: "python3", args: [HOSTILE, "silent"], startupTimeout: 500 },
  });
  const r = await run(["doctor"]);
  expect(r.code).toBe(1);
  expect(r.out).toContain('  error     the command "definitely-not-a-command-zot" was not found on PATH');
  expect(r.out).toContain("  error     no answer to initialize within 0.5 s of the start");
  expect(r.out).toContain(`  log       ${join(s.home, "logs", "mcp-quiet.log")}`);
  expect(r.out).toEndWith("problems found: 2 MCP server(s) (2 failed)\n");
});

test("zot ext doctor lists MCP servers after the extensions", async () => {
  writeList(join(s.home, "mcp.json"), { fx: { command: "python3", args: [MODERN] } });
  const r = await run(["doctor", "--json"], "ext");
  expect(r.code).toBe(0);
  const report = JSON.parse(r.out);
  expect(report.mcp_servers.map((x: { name: string; status: string }) => `${x.name}:${x.status}`)).toEqual(["fx:ready"]);
  expect((await run(["doctor"], "ext")).out).toContain("mcp:fx  ready  (user)  MCP 2026-07-28");
});

test("unknown subcommands and wrong arguments are usage errors in the zot ext style", async () => {
  expect(await run(["frob"])).toEqual({ code: 1, out: "", err: 'zot: unknown command "zot mcp frob"; run zot mcp --help to see the commands.\n' });
  expect((await run(["remove"])).err).toBe("zot: wrong number of arguments for zot mcp remove; usage: zot mcp remove <name> [--project]\n");
  expect((await run(["--help"])).out).toContain("usage: zot mcp <command> [options]");
});

test("doctor masks what ${VAR} expanded to (a key in the arguments) in its report and in the server's log", async () => {
  writeList(join(s.home, "mcp.json"), { keyed: { command: "definitely-not-a-command-zot", args: ["--api-key", "${ZOT_TEST_MCP_KEY}"] } });
  let out = "";
  const code = await runMcpCli(["doctor"], {
    env: { ...process.env, ZOT_HOME: s.home, ZOT_TEST_MCP_KEY: "sk-secret-value-123456" },
    cwd: s.project,
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: () => {} },
    isTTY: false,
    stdin: null,
  });
  expect(code).toBe(1);
  expect(out).toContain("definitely-not-a-command-zot --api-key sk-s…[redacted]");
  expect(out).not.toContain("sk-secret-value-123456");
  expect(readFileSync(join(s.home, "logs", "mcp-keyed.log"), "utf8")).not.toContain("sk-secret-value-123456");
  let listed = "";
  await runMcpCli(["list"], {
    env: { ...process.env, ZOT_HOME: s.home, ZOT_TEST_MCP_KEY: "sk-secret-value-123456" },
    cwd: s.project,
    stdout: { write: (t: string) => (listed += t) },
    stderr: { write: () => {} },
  });
  expect(listed).toContain("--api-key sk-s…[redacted]");
});

test("a client_credentials server needs no login: list says each run gets its own token, and login says there is nothing to log in to", async () => {
  const file = writeList(join(s.home, "mcp.json"), {
    svc: {
      type: "http",
      url: "https://mcp.example.test/mcp",
      oauth: { grant_type: "client_credentials", client_id: "svc", client_secret: "${SVC_SECRET:-unset}" },
    },
  });
  expect((await run(["list"])).out).toContain("\n  oauth: client credentials (each run gets its own token; no login)\n");
  expect(await run(["login", "svc"])).toEqual({
    code: 1,
    out: "",
    err: `zot: MCP server "svc" uses the client_credentials grant (${file}): every run gets its token with the configured client credentials, so there is nothing to log in to.\n`,
  });
});

test("list shows the OAuth state it knows: needs login for an oauth entry without tokens, nothing for a server with its own Authorization header", async () => {
  writeList(join(s.home, "mcp.json"), {
    web: { type: "http", url: "https://mcp.example.test/mcp", oauth: { client_id: "zot-cli" } },
    plain: { type: "http", url: "https://other.example.test/mcp", headers: { Authorization: "Bearer x" } },
  });
  const human = await run(["list"]);
  expect(human.out).toContain("\n  needs login: run zot mcp login web\n");
  const listed = JSON.parse((await run(["list", "--json"])).out) as { servers: { name: string; auth: string | null }[] };
  expect(listed.servers.map((x) => [x.name, x.auth])).toEqual([
    ["web", "needs login: run zot mcp login web"],
    ["plain", null],
  ]);
});
