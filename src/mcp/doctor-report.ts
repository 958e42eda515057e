// What `zot mcp doctor` (and /doctor inside a session) reports of each MCP server, and its human
// form: one block per server and a summary line.
import { skippedLine, type SkippedServer } from "./config.ts";
import type { ServerState } from "./server.ts";

export type McpDoctorServer = {
  name: string;
  source: ServerState["source"];
  file: string;
  transport: ServerState["transport"];
  target: string;
  status: ServerState["status"];
  error: string | null;
  era: ServerState["era"];
  protocol_version: string | null;
  server_info: ServerState["serverInfo"];
  tools: { name: string; remote: string; deferred: boolean }[];
  prompts: string[];
  resources: string[];
  warnings: string[];
  log: string;
  startup_ms: number | null;
  shadowed_by: string | null;
  /** OAuth: "oauth: logged in (expires …)" or "needs login: run zot mcp login NAME"; null when it does not apply. */
  auth: string | null;
};

export type McpDoctorReport = { servers: McpDoctorServer[]; untrusted: string[]; unapproved: SkippedServer[]; errors: string[] };

export function serverEntry(s: ServerState): McpDoctorServer {
  return {
    name: s.name,
    source: s.source,
    file: s.file,
    transport: s.transport,
    target: s.target,
    // Doctor reports after start-up settled: a server that is gone by then failed.
    status: s.status === "exited" || s.status === "starting" ? "failed" : s.status,
    error: s.error,
    era: s.era,
    protocol_version: s.protocolVersion,
    server_info: s.serverInfo,
    tools: s.tools,
    prompts: s.prompts,
    resources: s.resources,
    warnings: s.warnings,
    log: s.log,
    startup_ms: s.startupMs,
    shadowed_by: s.shadowedBy ?? null,
    auth: s.auth ?? null,
  };
}

export function reportOk(r: McpDoctorReport): boolean {
  return r.errors.length === 0 && r.servers.every((s) => s.status !== "failed" && s.status !== "invalid");
}

/** The human blocks, one per server, and a summary line. */
export function humanReport(r: McpDoctorReport): string {
  const out: string[] = [];
  for (const e of r.errors) out.push(`error: ${e}`);
  for (const u of r.untrusted) out.push(`not read: ${u} (the folder is not trusted; zot ext trust lets it load)`);
  for (const u of r.unapproved) out.push(skippedLine(u));
  for (const s of r.servers) {
    const head = [`mcp:${s.name}`, s.status, `(${s.source})`];
    if (s.protocol_version) head.push(`MCP ${s.protocol_version}`);
    if (s.startup_ms !== null) head.push(`${s.startup_ms} ms`);
    out.push(head.join("  "));
    const row = (k: string, v: string) => out.push(`  ${k.padEnd(10)}${v}`);
    if (s.target) row(s.transport ?? "runs", s.target);
    row("file", s.file);
    if (s.server_info) row("server", `${s.server_info.name} ${s.server_info.version}`.trim());
    if (s.error) row("error", s.error);
    if (s.auth) row("auth", s.auth);
    if (s.shadowed_by) row("shadowed", `by ${s.shadowed_by}`);
    if (s.tools.length) row("tools", s.tools.map((t) => (t.deferred ? `${t.name} (deferred)` : t.name)).join(", "));
    if (s.prompts.length) row("prompts", s.prompts.map((p) => `/${p}`).join(", "));
    if (s.resources.length) row("resources", `${s.resources.length} (${s.resources.slice(0, 3).join(", ")}${s.resources.length > 3 ? ", …" : ""})`);
    for (const w of s.warnings) row("warning", w);
    row("log", s.log);
    out.push("");
  }
  const counts = new Map<string, number>();
  for (const s of r.servers) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  const summary = [...counts].map(([k, n]) => `${n} ${k}`).join(", ");
  out.push(`${reportOk(r) ? "ok" : "problems found"}: ${r.servers.length} MCP server(s)${summary ? ` (${summary})` : ""}`);
  return out.join("\n") + "\n";
}
