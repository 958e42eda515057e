// One extension's state as `zot ext doctor` and the RPC `doctor` command report it: the JSON shape
// both print, decided once.
import { extensionLogPath } from "../platform/home.ts";
import { permissionsJson, type PermissionsJson } from "./sandbox/scope.ts";
import type { Enforcement, ImplicitGrants } from "./sandbox/confinement.ts";
import type { ExtensionState } from "./types.ts";

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
  /** For a shadowed copy: the directory of the extension of the same name that runs instead. */
  shadowed_by: string | null;
};

/** The extensions part of a doctor report. */
export type ExtensionsReport = { zot_version: string; home: string; cwd: string; ok: boolean; extensions: DoctorExtension[] };

const MAX_WARNINGS = 100;

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
    shadowed_by: s.shadowedBy ?? null,
  };
}
