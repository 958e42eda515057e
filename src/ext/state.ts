// One extension as `doctor`, `list` and the modes see it: discovery's facts plus what the running
// process registered and won.
import { extensionLogPath } from "../platform/home.ts";
import type { Connection } from "./connection/connection.ts";
import { enforcementOf } from "./sandbox/plan.ts";
import { OUTSIDE_ZOT } from "./sandbox/confinement.ts";
import type { Resolution } from "./registry.ts";
import type { DiscoveredExtension, ExtensionState } from "./types.ts";

export function extensionState(d: DiscoveredExtension, c: Connection | null, reg: Resolution, home: string | null): ExtensionState {
  const m = d.manifest;
  const name = c?.name ?? d.name;
  const commands: string[] = [];
  const tools: { name: string; deferred: boolean }[] = [];
  if (c?.running) {
    for (const cmd of c.commands) {
      const owner = reg.commands.get(cmd.name.toLowerCase());
      if (owner?.extension === name && owner.name === cmd.name && !commands.includes(cmd.name)) commands.push(cmd.name);
    }
    for (const t of c.tools) {
      const owner = reg.tools.get(t.name);
      if (owner?.extension === name && !tools.some((x) => x.name === t.name)) tools.push({ name: t.name, deferred: owner.deferred });
    }
  }
  const state: ExtensionState = {
    name,
    dir: d.dir,
    manifestPath: d.manifestPath,
    source: d.source,
    status: d.status === "spawn" ? (c ? liveStatus(c) : "failed") : d.status,
    error: c?.error ?? d.error,
    version: m?.version ?? c?.helloVersion ?? null,
    language: m?.language ?? null,
    description: m?.description ?? null,
    commands,
    tools,
    events: c ? [...c.events] : [],
    intercept: c ? [...c.intercept] : [],
    conflicts: c?.running ? [...(reg.conflicts.get(name) ?? [])] : [],
    warnings: [...d.warnings, ...(c?.warnings() ?? [])],
    log: c?.logPath || (home ? extensionLogPath(home, name) : ""),
    startupMs: c?.startupMs ?? null,
    permissions: m?.permissions ?? null,
    enforcement: m?.transport ? OUTSIDE_ZOT : enforcementOf(m?.permissions ?? null),
    granted: c?.sandbox?.grants ?? null,
    url: m?.transport?.url ?? null,
  };
  if (d.shadowedBy !== undefined) state.shadowedBy = d.shadowedBy;
  if (d.untrusted !== undefined) state.untrusted = d.untrusted;
  return state;
}

/** A `ready` that arrives after auto-ready still counts as ready (docs/decisions.md "Auto-ready"). */
function liveStatus(c: Connection): ExtensionState["status"] {
  if (c.status === "auto_ready" && c.readySeen) return "ready";
  return c.status;
}
