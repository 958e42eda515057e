// `zot mcp doctor`: starts every configured server exactly as a zot run does (same lists, trust,
// probe and handshake), lists its tools, prompts and resources, shuts everything down and reports
// one block per server, or JSON. `zot ext doctor` shows the same blocks after the extensions.
import { resolve } from "node:path";
import { ZOT_VERSION } from "../../version.ts";
import type { Ctx } from "../kit/context.ts";
import { Host } from "../../ext/host.ts";
import { trustMode } from "../../ext/install/trust.ts";
import { McpHost } from "../../mcp/host.ts";
import type { ServerState } from "../../mcp/server.ts";
import { humanReport, reportOk, serverEntry, type McpDoctorReport } from "../../mcp/doctor-report.ts";

export { humanReport, reportOk, type McpDoctorReport, type McpDoctorServer } from "../../mcp/doctor-report.ts";

export async function mcpReport(ctx: Ctx, files: string[], none: boolean): Promise<McpDoctorReport> {
  const host = new McpHost(new Host(), {
    files: files.map((f) => resolve(ctx.processCwd, f)),
    none,
    interactive: false,
    env: ctx.env,
    trust: trustMode(false, ctx.env),
  });
  let states: ServerState[];
  let errors: string[];
  try {
    await host.load({ extPaths: [], noExt: true, cwd: ctx.cwd, home: ctx.home, info: { zotVersion: ZOT_VERSION, provider: "", model: "", cwd: ctx.cwd } });
    states = host.serverStates();
    // Single servers report their own errors, and what trust skipped is listed as untrusted or
    // unapproved below, not as a failure (as zot ext doctor does).
    errors = host.setupProblems();
  } finally {
    await host.shutdown();
  }
  return { servers: states.map(serverEntry), untrusted: host.untrusted(), unapproved: host.unapproved(), errors };
}

export async function doctor(ctx: Ctx, opts: { json: boolean; files: string[]; none: boolean }): Promise<number> {
  const r = await mcpReport(ctx, opts.files, opts.none);
  if (opts.json) ctx.out.write(JSON.stringify({ zot_version: ZOT_VERSION, home: ctx.home, cwd: ctx.cwd, ok: reportOk(r), ...r }, null, 2) + "\n");
  else if (r.servers.length === 0 && r.errors.length === 0 && r.untrusted.length === 0 && r.unapproved.length === 0)
    ctx.out.write(`no MCP servers configured (looked in ${ctx.cwd}/.zot/mcp.json, ${ctx.cwd}/.mcp.json and ${ctx.home}/mcp.json)\n`);
  else ctx.out.write(humanReport(r));
  return reportOk(r) ? 0 : 1;
}
