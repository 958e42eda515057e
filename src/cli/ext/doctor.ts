// `zot ext doctor`: loads extensions exactly as zot starts them (discovery, spawn, handshake, the same
// waits), takes the report, shuts everything down, and prints one block per extension or JSON.
import { resolve } from "node:path";
import { ZOT_VERSION } from "../../version.ts";
import { Host } from "../../ext/host.ts";
import { doctorEntry, type ExtensionsReport } from "../../ext/doctor-entry.ts";
import { trustMode } from "../../ext/install/trust.ts";
import type { ExtensionState } from "../../ext/types.ts";
import { policy } from "./lookup.ts";
import { redactSecrets } from "../../redact.ts";
import { storedSecretValues } from "../../ext/install/settings.ts";
import type { Ctx } from "../kit/context.ts";
import { extensionsText, resolvedScopes } from "../../ext/doctor-text.ts";
import type { McpDoctorServer } from "../mcp/doctor.ts";
import { hasMcpConfig } from "../../runtime/mcp-wiring.ts";
import { configPath, readConfig } from "../../agent/config.ts";
import { startingPermissionMode } from "../../agent/permission-modes.ts";
import { setUpSandbox } from "../../agent/sandbox/setup.ts";
import type { PermissionMode } from "../../agent/choices.ts";

/**
 * `agent_sandbox`: the sandbox of the agent's own commands as config.json sets it, whether this
 * machine enforces it, and the permission mode a new session starts in because of that.
 */
export type AgentSandboxReport = { mode: string; enforced: boolean; network: boolean; reason: string; default_permission_mode: PermissionMode };
export type DoctorReport = ExtensionsReport & { mcp_servers?: McpDoctorServer[]; agent_sandbox: AgentSandboxReport };

function agentSandbox(ctx: Ctx): { report: AgentSandboxReport; warnings: string[] } {
  const config = readConfig(ctx.home);
  const { status, notices } = setUpSandbox(config.raw.sandbox, configPath(ctx.home), { cwd: ctx.cwd, home: ctx.home, env: ctx.env });
  const mode = startingPermissionMode({
    ...(config.values.permissionMode ? { config: config.values.permissionMode } : {}),
    sandboxEnforced: status.enforced || status.mode === "off",
  });
  return {
    report: { mode: status.mode, enforced: status.enforced, network: status.network, reason: status.reason, default_permission_mode: mode },
    warnings: notices,
  };
}

/** The agent sandbox's line in the human report: the mode, and what a new session does about it. */
function sandboxLine(s: AgentSandboxReport): string {
  const mode = `${s.mode}${s.network ? " + network" : ""}`;
  if (s.mode === "off") return `agent sandbox: off; the agent's commands run with your full rights (new sessions start in ${s.default_permission_mode})`;
  if (s.enforced) return `agent sandbox: ${mode}, enforced (${s.reason}); new sessions start in ${s.default_permission_mode}`;
  return `agent sandbox: ${mode}, NOT enforced here (${s.reason}); the agent's commands would run with your full rights, so new sessions start in ${s.default_permission_mode}`;
}

export async function doctor(ctx: Ctx, opts: { json: boolean; extPaths: string[]; noExt: boolean }): Promise<number> {
  const host = new Host();
  const secrets = storedSecretValues(ctx.home);
  // MCP servers are extensions too: configured ones start beside the extensions and get their own blocks.
  const mcp = hasMcpConfig({ home: ctx.home, cwd: ctx.cwd, files: [], none: false })
    ? import("../mcp/doctor.ts").then(async (m) => ({ m, r: await m.mcpReport(ctx, [], false) }))
    : null;
  let states: ExtensionState[];
  try {
    await host.load({
      extPaths: opts.extPaths.map((p) => resolve(ctx.processCwd, p)),
      noExt: opts.noExt,
      cwd: ctx.cwd,
      home: ctx.home,
      policy: policy(ctx),
      mask: (text) => redactSecrets(text, secrets),
      onSecret: (value) => void secrets.push(value),
      trust: trustMode(false, ctx.env),
      info: { zotVersion: ZOT_VERSION, provider: "", model: "", cwd: ctx.cwd },
    });
    states = host.states();
  } finally {
    await host.shutdown();
  }
  const extensions = states.map((s) => doctorEntry(s, ctx.home));
  const m = await mcp;
  const sandbox = agentSandbox(ctx);
  for (const w of sandbox.warnings) ctx.err.write(`zot: ${w}\n`);
  const report: DoctorReport = {
    zot_version: ZOT_VERSION,
    home: ctx.home,
    cwd: ctx.cwd,
    ok: extensions.every((e) => e.status !== "failed" && e.status !== "invalid") && (!m || m.m.reportOk(m.r)),
    extensions,
    ...(m ? { mcp_servers: m.r.servers } : {}),
    agent_sandbox: sandbox.report,
  };
  if (opts.json) ctx.out.write(JSON.stringify(report, null, 2) + "\n");
  else
    ctx.out.write(
      extensionsText(report, resolvedScopes(states, ctx.cwd, ctx.home), [sandboxLine(report.agent_sandbox)]) + (m ? `\n${m.m.humanReport(m.r)}` : ""),
    );
  return report.ok ? 0 : 1;
}
