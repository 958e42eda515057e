// What project code is pending workspace trust, as the start-up question and /trust list it: each
// extension's name, command line and capabilities, each MCP server as its list writes it.
import { capabilityLines } from "../../ext/capabilities.ts";
import { commandLine, extensionTarget, serverTarget, visible, writtenText } from "../../ext/exec-line.ts";
import type { PendingServer } from "../../runtime/project-code.ts";
import type { DiscoveredExtension } from "../../ext/types.ts";
import { isObject, type Json } from "../../json.ts";

const RUNS_AS_YOU = "    capabilities: none declared; it would run as you: your files, your network, your API keys";

/** The warning under every listing. */
export const TRUST_WARNING = "These programs come with the folder (a cloned repository, for one). Only trust folders you trust.";

/** The heading and the entries for the extensions and MCP servers `pending` (untrusted, new or changed) of the project `cwd`. */
export function trustListing(cwd: string, pending: DiscoveredExtension[], servers: PendingServer[]): string[] {
  const changed = pending.some((e) => e.untrusted !== "untrusted") || servers.some((s) => s.why !== "untrusted");
  const what = pending.length && servers.length ? "project extensions and MCP servers" : servers.length ? "project MCP servers" : "project extensions";
  const lines = [
    changed
      ? `zot: ${what} in ${visible(cwd)} are new or changed since the folder was trusted:`
      : `zot: ${visible(cwd)} is not a trusted folder, and it has ${what}:`,
    "",
  ];
  for (const e of pending) {
    const m = e.manifest!;
    const tag = [e.untrusted === "new" ? "new" : e.untrusted === "changed" ? "changed" : "", m.enabled ? "" : "disabled in its manifest"].filter(Boolean);
    lines.push(`  ${visible(e.name)}${m.version ? ` ${visible(m.version)}` : ""}${tag.length ? ` (${tag.join(", ")})` : ""}`);
    if (m.description) lines.push(`    ${visible(m.description)}`);
    const target = extensionTarget(m);
    lines.push(`    ${`${target.label}:`.padEnd(14)}${target.line}`);
    for (const [i, c] of capabilityLines(m).entries()) lines.push(`    ${i === 0 ? "capabilities: " : "              "}${c}`);
  }
  for (const s of servers) lines.push(...serverLines(s));
  return lines;
}

/** One MCP server as its list writes it: `${VAR}` left unexpanded, so no secret of yours is shown. */
function serverLines(s: PendingServer): string[] {
  const w = s.written;
  const tag = [s.why === "untrusted" ? "" : s.why, s.disabled ? "disabled in its list" : ""].filter(Boolean);
  const lines = [`  MCP server ${visible(s.name)}${tag.length ? ` (${tag.join(", ")})` : ""}`, `    from:         ${visible(s.file)}`];
  const pairs = (v: Json | undefined, sep: string) => (isObject(v) ? Object.entries(v).map(([k, x]) => `${k}${sep}${writtenText(x)}`) : []);
  const target = serverTarget(w);
  lines.push(`    ${`${target.label}:`.padEnd(14)}${target.line}`);
  if (w.transport === "http") {
    for (const h of pairs(w.headers, ": ")) lines.push(`    header:       ${visible(h)}`);
    lines.push("    capabilities: a remote server; the model's calls to its tools go there");
    return lines;
  }
  const env = pairs(w.env, "=");
  if (env.length) lines.push(`    env:          ${commandLine(env)}`);
  if (w.cwd !== null) lines.push(`    in:           ${visible(writtenText(w.cwd))}`);
  lines.push(RUNS_AS_YOU);
  return lines;
}
