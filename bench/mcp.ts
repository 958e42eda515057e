// MCP client benchmarks (issue 14 §4). Run: bun bench/mcp.ts  (prints a Markdown section).
//  1. Tool round trip through the one host interface the agent loop uses (`callTool`): an MCP tool
//     of a stdio server vs the same tool of an extension, both minimal Bun programs that answer at
//     once (target: MCP ≤ 1.5× the extension).
//  2. Starting 5 MCP servers in parallel vs the slowest alone (target ≤ 1.3×).
//  3. zot as an MCP server (`zot mcp serve`, issue 23), called through the same client: an
//     extension's tool served by zot vs the minimal stdio server's tool (zot adds one hop: the
//     extension behind it), and zot's own `read` (no extension behind it); no target of its own,
//     the numbers say what the hop costs. It runs the built binary: bun scripts/build.ts first.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Host } from "../src/ext/host.ts";
import { McpHost } from "../src/mcp/host.ts";

const root = mkdtempSync(join(tmpdir(), "zot-bench-mcp-"));
const home = join(root, "home");
mkdirSync(home);
// NaN for an empty sample, which the report then shows.
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? Number.NaN;
const fmt = (n: number, d = 1) => n.toFixed(d);
const out: string[] = [];
const info = { zotVersion: "bench", provider: "", model: "", cwd: root };

function file(name: string, text: string): string {
  const path = join(root, name);
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

// A minimal initialize-era MCP server in Bun: answers initialize after `delay` ms, lists one tool, echoes calls.
const mcpServer = file(
  "server.ts",
  `const delay = Number(process.argv[2] ?? 0);
const send = (m: object) => process.stdout.write(JSON.stringify(m) + "\\n");
for await (const line of console) {
  if (!line) continue;
  const m = JSON.parse(line);
  if (m.id === undefined) continue;
  if (m.method === "initialize") { if (delay) await Bun.sleep(delay); send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "b", version: "1" } } }); }
  else if (m.method === "tools/list") send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "echo", description: "echo", inputSchema: { type: "object" } }] } });
  else if (m.method === "tools/call") send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: JSON.stringify(m.params.arguments) }] } });
  else send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
}
`,
);

// The same tool as a zot extension in Bun.
const extDir = join(root, "echoext");
mkdirSync(extDir);
writeFileSync(join(extDir, "extension.json"), JSON.stringify({ name: "echoext", version: "1", exec: "bun", args: ["./ext.ts"] }));
writeFileSync(
  join(extDir, "ext.ts"),
  `const send = (m: object) => process.stdout.write(JSON.stringify(m) + "\\n");
send({ type: "hello", name: "echoext", version: "1" });
send({ type: "register_tool", name: "ext_echo", description: "echo", schema: { type: "object" } });
send({ type: "ready" });
for await (const line of console) {
  if (!line) continue;
  const f = JSON.parse(line);
  if (f.type === "tool_call") send({ type: "tool_result", id: f.id, content: [{ type: "text", text: JSON.stringify(f.args) }], is_error: false });
  if (f.type === "shutdown") break;
}
`,
);

function list(name: string, servers: Record<string, unknown>): string {
  const path = join(root, name);
  writeFileSync(path, JSON.stringify({ mcpServers: servers }));
  return path;
}

async function roundTrips(): Promise<void> {
  const servers = list("rt.json", { b: { command: "bun", args: [mcpServer] } });
  const host = new McpHost(new Host(), { files: [servers], none: true, interactive: false, trust: "store" });
  const report = await host.load({ extPaths: [extDir], noExt: true, cwd: root, home, info });
  if (report.errors.length) throw new Error(report.errors.map((e) => e.message).join("; "));
  const signal = new AbortController().signal;
  const time = async (name: string, n: number) => {
    const xs: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const r = await host.callTool(name, { i }, { signal });
      xs.push(performance.now() - t);
      if (r.isError) throw new Error(JSON.stringify(r.content));
    }
    return xs;
  };
  const runs: { ext: number[]; mcp: number[] }[] = [];
  for (let round = 0; round < 5; round++) {
    await time("ext_echo", 300);
    await time("mcp__b__echo", 300);
    // Interleaved rounds, so both see the same machine load.
    runs.push({ ext: await time("ext_echo", 2000), mcp: await time("mcp__b__echo", 2000) });
  }
  await host.shutdown();
  const ext = runs.flatMap((r) => r.ext);
  const mcp = runs.flatMap((r) => r.mcp);
  const ratios = runs.map((r) => median(r.mcp) / median(r.ext));
  out.push("### Tool round trip through `callTool` (5 interleaved rounds of 2 000 calls each, after 300 warm-up)", "");
  out.push("| tool | median | p99 | ratio (median of the rounds' medians) | target |", "|---|---|---|---|---|");
  out.push(`| extension tool (Bun extension) | ${fmt(median(ext) * 1000, 0)} µs | ${fmt(pct(ext, 0.99) * 1000, 0)} µs | 1.00 | |`);
  out.push(
    `| MCP tool (Bun stdio server) | ${fmt(median(mcp) * 1000, 0)} µs | ${fmt(pct(mcp, 0.99) * 1000, 0)} µs | **${fmt(median(ratios), 2)}×** [${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)}] | ≤ 1.5× ${median(ratios) <= 1.5 ? "✓" : "✗"} |`,
  );
  out.push("");
}

async function loadMs(servers: Record<string, unknown>): Promise<number> {
  const path = list("load.json", servers);
  const host = new McpHost(new Host(), { files: [path], none: true, interactive: false, trust: "store" });
  const t = performance.now();
  const report = await host.load({ extPaths: [], noExt: true, cwd: root, home, info });
  const ms = performance.now() - t;
  if (report.errors.length) throw new Error(report.errors.map((e) => e.message).join("; "));
  await host.shutdown();
  return ms;
}

async function parallelStart(): Promise<void> {
  const slow = { command: "bun", args: [mcpServer, "300"] };
  const others = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`fast${i}`, { command: "bun", args: [mcpServer, "50"] }]));
  // The first start of each probes and remembers the era; the measured runs start as zot does afterwards.
  await loadMs({ slow, ...others });
  const alone: number[] = [];
  const five: number[] = [];
  for (let i = 0; i < 7; i++) {
    alone.push(await loadMs({ slow }));
    five.push(await loadMs({ slow, ...others }));
  }
  out.push("### Starting servers (median of 7 runs; `load()` until every server listed its tools)", "");
  out.push("| case | median ms | ratio | target |", "|---|---|---|---|");
  out.push(`| slowest alone (Bun, answers initialize after 300 ms) | ${fmt(median(alone))} | 1.00 | |`);
  out.push(
    `| slowest + 4 others (50 ms each), in parallel | ${fmt(median(five))} | **${fmt(median(five) / median(alone), 2)}×** | ≤ 1.3× ${median(five) / median(alone) <= 1.3 ? "✓" : "✗"} |`,
  );
  out.push("");
}

async function served(): Promise<void> {
  const zot = join(import.meta.dir, "..", "dist", "zot");
  writeFileSync(join(root, "small.txt"), "a small file\n");
  const servers = list("served.json", {
    b: { command: "bun", args: [mcpServer] },
    z: { command: zot, args: ["mcp", "serve", "--no-mcp", "--ext", extDir, "--permission-mode", "yolo", "--cwd", root], env: { ZOT_HOME: home } },
  });
  const host = new McpHost(new Host(), { files: [servers], none: true, interactive: false, trust: "store" });
  const report = await host.load({ extPaths: [], noExt: true, cwd: root, home, info });
  if (report.errors.length) throw new Error(report.errors.map((e) => e.message).join("; "));
  const signal = new AbortController().signal;
  const time = async (name: string, args: Record<string, string | number>, n: number) => {
    const xs: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const r = await host.callTool(name, args, { signal });
      xs.push(performance.now() - t);
      if (r.isError) throw new Error(JSON.stringify(r.content));
    }
    return xs;
  };
  const runs: { plain: number[]; ext: number[]; read: number[] }[] = [];
  for (let round = 0; round < 5; round++) {
    await time("mcp__b__echo", { i: 0 }, 200);
    await time("mcp__z__ext_echo", { i: 0 }, 200);
    await time("mcp__z__read", { path: "small.txt" }, 200);
    runs.push({
      plain: await time("mcp__b__echo", { i: 0 }, 1000),
      ext: await time("mcp__z__ext_echo", { i: 0 }, 1000),
      read: await time("mcp__z__read", { path: "small.txt" }, 1000),
    });
  }
  await host.shutdown();
  const mid = (xs: number[]) => median(xs) ?? Number.NaN;
  const row = (label: string, key: "plain" | "ext" | "read") => {
    const xs = runs.flatMap((r) => r[key]);
    const ratios = runs.map((r) => mid(r[key]) / mid(r.plain));
    return `| ${label} | ${fmt(mid(xs) * 1000, 0)} µs | ${fmt((pct(xs, 0.99) ?? Number.NaN) * 1000, 0)} µs | ${fmt(mid(ratios), 2)}× [${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)}] |`;
  };
  out.push(
    "### zot as an MCP server (`zot mcp serve` over stdio, called through zot's MCP client; 5 interleaved rounds of 1 000 calls, after 200 warm-up)",
    "",
  );
  out.push("| tool | median | p99 | ratio to the minimal server |", "|---|---|---|---|");
  out.push(
    row("minimal Bun stdio server's echo", "plain"),
    row("an extension's echo, served by zot", "ext"),
    row("zot's built-in read of a small file", "read"),
    "",
  );
}

try {
  out.push(
    `## MCP client`,
    "",
    `Machine: ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} at the start (shared with other jobs); Bun ${Bun.version}.`,
    "",
  );
  await roundTrips();
  await parallelStart();
  await served();
  console.log(out.join("\n"));
} finally {
  rmSync(root, { recursive: true, force: true });
}
