// The human form of an extensions report (`zot ext doctor`, and /doctor inside a session): one block
// per extension, then a summary line. `resolvedScope` gives a scope with its placeholders expanded.
import { describePermissions, expandPermissions, permissionsJson, type PermissionsJson } from "./sandbox/scope.ts";
import { describeGrants } from "./sandbox/confinement.ts";
import type { ExtensionsReport } from "./doctor-entry.ts";
import type { ExtensionState } from "./types.ts";

/** Each extension's declared scope as the sandbox grants it (placeholders expanded), by directory. */
export function resolvedScopes(states: readonly ExtensionState[], cwd: string, home: string): (dir: string) => PermissionsJson | null {
  const tmp = process.getBuiltinModule("node:os").tmpdir();
  const resolved = new Map(
    states.map((s) => [s.dir, s.permissions ? permissionsJson(expandPermissions(s.permissions, { extensionDir: s.dir, cwd, home, tmp })) : null]),
  );
  return (dir) => resolved.get(dir) ?? null;
}

/** `resolvedScope` gives the scope with its placeholders expanded, as the sandbox grants it. */
/** `before` goes above the summary line (`zot ext doctor` puts the agent sandbox there). */
export function extensionsText(r: ExtensionsReport, resolvedScope: (dir: string) => PermissionsJson | null, before: readonly string[] = []): string {
  const out: string[] = [];
  if (r.extensions.length === 0) out.push(`no extensions found (looked in ${r.cwd}/.zot/extensions and ${r.home}/extensions)`);
  for (const e of r.extensions) {
    const head = [e.name, e.status, `(${e.source})`];
    if (e.version) head.splice(1, 0, e.version);
    if (e.startup_ms !== null) head.push(`${e.startup_ms} ms`);
    out.push(head.join("  "));
    const row = (k: string, v: string) => out.push(`  ${k.padEnd(10)}${v}`);
    row("dir", e.dir);
    if (e.url) row("url", e.url);
    if (e.error) row("error", e.error);
    if (e.shadowed_by) row("shadowed", `by ${e.shadowed_by}, which has the same name and loads first`);
    if (e.commands.length) row("commands", e.commands.map((c) => `/${c}`).join(", "));
    if (e.tools.length) row("tools", e.tools.map((t) => (t.deferred ? `${t.name} (deferred)` : t.name)).join(", "));
    if (e.events.length) row("events", e.events.join(", "));
    if (e.intercept.length) row("intercept", e.intercept.join(", "));
    const scope = resolvedScope(e.dir) ?? e.permissions;
    if (scope) row("scope", describePermissions(scope));
    // Without a declaration every protocol power is held: say so beside what it intercepts.
    else if (e.intercept.length || e.commands.length || e.tools.length)
      row("powers", "all: it declares no permissions, so it may rewrite what it intercepts, submit prompts and switch on deferred tools");
    row("sandbox", e.sandbox);
    if (e.granted) row("granted", describeGrants(e.granted));
    for (const c of e.conflicts) row("conflict", c);
    for (const w of e.warnings) row("warning", w);
    row("log", e.log);
    out.push("");
  }
  const counts = new Map<string, number>();
  for (const e of r.extensions) counts.set(e.status, (counts.get(e.status) ?? 0) + 1);
  const summary = [...counts].map(([k, n]) => `${n} ${k}`).join(", ");
  out.push(...before);
  out.push(`${r.ok ? "ok" : "problems found"}: ${r.extensions.length} extension(s)${summary ? ` (${summary})` : ""}; zot ${r.zot_version}, home ${r.home}`);
  return out.join("\n") + "\n";
}
