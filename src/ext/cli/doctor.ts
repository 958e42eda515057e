// `zot ext doctor`: loads extensions exactly as zot starts them (discovery, spawn, handshake, the same
// waits), takes the report, shuts everything down, and prints one block per extension or JSON.
import { resolve } from "node:path";
import { ZOT_VERSION } from "../../version.ts";
import { Host } from "../host.ts";
import { extensionLogPath } from "../log.ts";
import { describePermissions, expandPermissions, permissionsJson, type PermissionsJson } from "../permissions.ts";
import { describeGrants, type Enforcement, type ImplicitGrants } from "../sandbox/policy.ts";
import { trustMode } from "../trust.ts";
import type { ExtensionState } from "../types.ts";
import { policy } from "./lookup.ts";
import { redactSecrets } from "../../redact.ts";
import { storedSecretValues } from "../settings.ts";
import type { Ctx } from "./context.ts";
import type { McpDoctorServer } from "../../mcp/cli/doctor.ts";
import { hasMcpConfig } from "../../mcp/wiring.ts";

export type DoctorStatus = "ready" | "auto_ready" | "failed" | "invalid" | "disabled" | "shadowed" | "theme_only" | "untrusted" | "needs_config";

export type DoctorExtension = {
  name: string;
  dir: string;
  source: "project" | "global" | "flag";
  status: DoctorStatus;
  error: string | null;
  version: string | null;
  commands: string[];
  tools: { name: string; deferred: boolean }[];
  events: string[];
  intercept: string[];
  conflicts: string[];
  warnings: string[];
  log: string;
  startup_ms: number | null;
  /** The scope it runs with; null when it declares none. */
  permissions: PermissionsJson | null;
  /** "enforced", "partial: <why>", "advisory", "unrestricted", or "unrestricted (runs outside zot)" for a WebSocket extension. */
  sandbox: Enforcement;
  /** What the sandbox granted on its own to start it (its program, loader, libraries, interpreter tree), and what it refused; null without a scope. */
  granted: ImplicitGrants | null;
  /** Where zot connects to a WebSocket extension; null for one it starts. */
  url: string | null;
};

export type DoctorReport = { zot_version: string; home: string; cwd: string; ok: boolean; extensions: DoctorExtension[]; mcp_servers?: McpDoctorServer[] };

const MAX_WARNINGS = 100;

export async function doctor(ctx: Ctx, opts: { json: boolean; extPaths: string[]; noExt: boolean }): Promise<number> {
  const host = new Host();
  const secrets = storedSecretValues(ctx.home);
  // MCP servers are extensions too: configured ones start beside the extensions and get their own blocks.
  const mcp = hasMcpConfig({ home: ctx.home, cwd: ctx.cwd, files: [], none: false }) ? import("../../mcp/cli/doctor.ts").then(async (m) => ({ m, r: await m.mcpReport(ctx, [], false) })) : null;
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
  const tmp = process.getBuiltinModule("node:os").tmpdir();
  const resolved = new Map(states.map((s) => [s.dir, s.permissions ? permissionsJson(expandPermissions(s.permissions, { extensionDir: s.dir, cwd: ctx.cwd, home: ctx.home, tmp })) : null]));
  const m = await mcp;
  const report: DoctorReport = {
    zot_version: ZOT_VERSION,
    home: ctx.home,
    cwd: ctx.cwd,
    ok: extensions.every((e) => e.status !== "failed" && e.status !== "invalid") && (!m || m.m.reportOk(m.r)),
    extensions,
    ...(m ? { mcp_servers: m.r.servers } : {}),
  };
  if (opts.json) ctx.out.write(JSON.stringify(report, null, 2) + "\n");
  else ctx.out.write(human(report, (dir) => resolved.get(dir) ?? null) + (m ? `\n${m.m.humanReport(m.r)}` : ""));
  return report.ok ? 0 : 1;
}

export function doctorEntry(s: ExtensionState, home: string): DoctorExtension {
  let status: DoctorStatus;
  let error = s.error;
  if (s.status === "exited" || s.status === "starting") {
    // Doctor reports after loading settled; an extension that is gone by then failed.
    status = "failed";
    error = error ?? (s.status === "exited" ? "exited right after loading" : "registration did not complete");
  } else {
    status = s.status;
  }
  const warnings =
    s.warnings.length > MAX_WARNINGS ? [...s.warnings.slice(0, MAX_WARNINGS - 1), `…and ${s.warnings.length - MAX_WARNINGS + 1} more warnings`] : s.warnings;
  return {
    name: s.name,
    dir: s.dir,
    source: s.source,
    status,
    error,
    version: s.version,
    commands: s.commands,
    tools: s.tools.map((t) => ({ name: t.name, deferred: t.deferred })),
    events: s.events,
    intercept: s.intercept.map((i) => i.event),
    conflicts: s.conflicts,
    warnings,
    log: s.log || extensionLogPath(home, s.name),
    startup_ms: s.startupMs === null ? null : Math.round(s.startupMs * 10) / 10,
    permissions: s.permissions ? permissionsJson(s.permissions) : null,
    sandbox: s.enforcement,
    granted: s.granted,
    url: s.url,
  };
}

/** `resolvedScope` gives the scope with its placeholders expanded, as the sandbox grants it. */
function human(r: DoctorReport, resolvedScope: (dir: string) => PermissionsJson | null): string {
  const out: string[] = [];
  if (r.extensions.length === 0) out.push(`no extensions found (looked in ${r.cwd}/.zot/extensions and ${r.home}/extensions)`);
  for (const e of r.extensions) {
    const head = [e.name, e.status.replace("_", "-"), `(${e.source})`];
    if (e.version) head.splice(1, 0, e.version);
    if (e.startup_ms !== null) head.push(`${e.startup_ms} ms`);
    out.push(head.join("  "));
    const row = (k: string, v: string) => out.push(`  ${k.padEnd(10)}${v}`);
    row("dir", e.dir);
    if (e.url) row("url", e.url);
    if (e.error) row("error", e.error);
    if (e.commands.length) row("commands", e.commands.map((c) => `/${c}`).join(", "));
    if (e.tools.length) row("tools", e.tools.map((t) => (t.deferred ? `${t.name} (deferred)` : t.name)).join(", "));
    if (e.events.length) row("events", e.events.join(", "));
    if (e.intercept.length) row("intercept", e.intercept.join(", "));
    const scope = resolvedScope(e.dir) ?? e.permissions;
    if (scope) row("scope", describePermissions(scope));
    row("sandbox", e.sandbox);
    if (e.granted) row("granted", describeGrants(e.granted));
    for (const c of e.conflicts) row("conflict", c);
    for (const w of e.warnings) row("warning", w);
    row("log", e.log);
    out.push("");
  }
  const counts = new Map<string, number>();
  for (const e of r.extensions) counts.set(e.status, (counts.get(e.status) ?? 0) + 1);
  const summary = [...counts].map(([k, n]) => `${n} ${k.replace("_", "-")}`).join(", ");
  out.push(`${r.ok ? "ok" : "problems found"}: ${r.extensions.length} extension(s)${summary ? ` (${summary})` : ""}; zot ${r.zot_version}, home ${r.home}`);
  return out.join("\n") + "\n";
}
