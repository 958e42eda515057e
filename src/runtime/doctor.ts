// /doctor inside a session: the same blocks `zot ext doctor` and `zot mcp doctor` print, about the
// extensions and MCP servers this run has loaded (not a fresh start of them), with zot's version,
// whether the provider answers, and the sandbox.
import type { ExtensionHost } from "../ext/types.ts";
import { doctorEntry, type DoctorExtension } from "../ext/doctor-entry.ts";
import { extensionsText, resolvedScopes } from "../ext/doctor-text.ts";
import { humanReport, reportOk, serverEntry, type McpDoctorReport } from "../mcp/doctor-report.ts";
import { sandboxLabel, type SandboxStatus } from "../agent/sandbox/status.ts";
import { PROBE_TIMEOUT_MS, probeKey, probeRequest } from "../agent/providers/key-check.ts";
import { ZOT_VERSION } from "../version.ts";

export type ProviderCheck =
  | { kind: "ok"; url: string; status: number }
  | { kind: "rejected"; url: string; status: number; withKey: boolean }
  /** It answered, with a status that says nothing about the key (a proxy without a model list). */
  | { kind: "answered"; url: string; why: string }
  | { kind: "unreachable"; url: string; why: string }
  | { kind: "unchecked"; why: string };

export type SessionDoctor = {
  zot_version: string;
  home: string;
  cwd: string;
  provider: string;
  model: string;
  reach: ProviderCheck;
  extensions: DoctorExtension[];
  /** Null when this run has no MCP client (no server lists, or --no-mcp). */
  mcp: McpDoctorReport | null;
  sandbox: SandboxStatus;
  ok: boolean;
};

export type DoctorPlace = {
  home: string;
  cwd: string;
  provider: string;
  model: string;
  key: string | null;
  baseUrl: string | undefined;
  sandbox: SandboxStatus;
};

/** One cheap request to the provider's model list; without a key a 401 still proves the server answers. */
async function reach(p: DoctorPlace, signal: AbortSignal): Promise<ProviderCheck> {
  if (p.provider === "mock") return { kind: "unchecked", why: "the offline mock provider has nothing to reach" };
  const req = probeRequest(p.provider, p.key ?? "", p.baseUrl);
  if (!req) return { kind: "unchecked", why: `zot has no check for ${p.provider}` };
  if (p.key === null) delete req.headers.authorization;
  const r = await probeKey(req, PROBE_TIMEOUT_MS, signal);
  if (r.kind === "ok") return r;
  if (r.kind === "rejected") return { ...r, withKey: p.key !== null };
  return { kind: /^HTTP \d+$/.test(r.why) ? "answered" : "unreachable", url: r.url, why: r.why };
}

export async function sessionDoctor(host: ExtensionHost, place: DoctorPlace, signal: AbortSignal): Promise<SessionDoctor> {
  const states = host.states();
  const extensions = states.map((s) => doctorEntry(s, place.home));
  const [checked, mcp] = await Promise.all([reach(place, signal), mcpReport(host)]);
  const ok =
    checked.kind !== "unreachable" &&
    !(checked.kind === "rejected" && checked.withKey) &&
    extensions.every((e) => e.status !== "failed" && e.status !== "invalid") &&
    (!mcp || reportOk(mcp));
  return {
    zot_version: ZOT_VERSION,
    home: place.home,
    cwd: place.cwd,
    provider: place.provider,
    model: place.model,
    reach: checked,
    extensions,
    mcp,
    sandbox: place.sandbox,
    ok,
  };
}

async function mcpReport(host: ExtensionHost): Promise<McpDoctorReport | null> {
  const { McpHost } = await import("../mcp/host.ts");
  if (!(host instanceof McpHost)) return null;
  return { servers: host.serverStates().map(serverEntry), untrusted: host.untrusted(), unapproved: host.unapproved(), errors: host.setupProblems() };
}

function reachLine(r: ProviderCheck): string {
  switch (r.kind) {
    case "ok":
      return `reachable, the key works (HTTP ${r.status} from ${r.url})`;
    case "rejected":
      return r.withKey
        ? `reachable, but the key was refused (HTTP ${r.status} from ${r.url}); /login stores another`
        : `reachable (HTTP ${r.status} from ${r.url} without a key)`;
    case "answered":
      return `reachable (${r.why} from ${r.url}, which does not say whether the key works)`;
    case "unreachable":
      return `NOT reachable: ${r.why} (${r.url})`;
    case "unchecked":
      return `not checked: ${r.why}`;
  }
}

/** The report as text: zot, provider and sandbox first, then the extension and MCP server blocks. */
export function doctorText(r: SessionDoctor, states: Parameters<typeof resolvedScopes>[0]): string {
  const head = [
    `zot ${r.zot_version}  home ${r.home}`,
    `provider  ${r.provider}/${r.model}: ${reachLine(r.reach)}`,
    `${sandboxLabel(r.sandbox)} (${r.sandbox.reason})`,
    "",
  ].join("\n");
  const ext = extensionsText(
    {
      zot_version: r.zot_version,
      home: r.home,
      cwd: r.cwd,
      ok: r.extensions.every((e) => e.status !== "failed" && e.status !== "invalid"),
      extensions: r.extensions,
    },
    resolvedScopes(states, r.cwd, r.home),
  );
  const m = r.mcp;
  const none = !m || (m.servers.length === 0 && m.errors.length === 0 && m.untrusted.length === 0 && m.unapproved.length === 0);
  const mcp = none ? `no MCP servers configured (looked in ${r.cwd}/.zot/mcp.json, ${r.cwd}/.mcp.json and ${r.home}/mcp.json)\n` : humanReport(m);
  return `${head}\n${ext}\n${mcp}${r.ok ? "ok" : "problems found"}\n`;
}
