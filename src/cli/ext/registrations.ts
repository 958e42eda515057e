// What an extension registers (commands, tools, events, interceptors) is only known by running it.
// `zot ext update` starts the installed copy and the fetched one this way to show what an update
// adds — the new copy under the scope the user already granted the old one, never a wider one.
import { ZOT_VERSION } from "../../version.ts";
import { Host } from "../../ext/host.ts";
import type { Permissions } from "../../ext/sandbox/scope.ts";
import type { Ctx } from "../kit/context.ts";

export type Registrations = { commands: string[]; tools: string[]; events: string[]; intercept: string[] };

/** Starts the extension in `dir` alone (its settings as stored), takes its registrations, stops it. */
export async function probeRegistrations(ctx: Ctx, dir: string, name: string, scope: Permissions | null): Promise<Registrations | { error: string }> {
  const host = new Host({ shutdownGraceMs: 500, killAfterMs: 300 });
  try {
    await host.load({
      extPaths: [dir],
      noExt: true,
      cwd: ctx.cwd,
      home: ctx.home,
      policy: { unrestricted: "allow", permissions: new Map([[name.toLowerCase(), scope]]) },
      info: { zotVersion: ZOT_VERSION, provider: "", model: "", cwd: ctx.cwd },
    });
    const s = host.states()[0];
    if (!s || (s.status !== "ready" && s.status !== "auto_ready")) return { error: s?.error ?? "it did not start" };
    return { commands: s.commands, tools: s.tools.map((t) => t.name), events: [...s.events], intercept: s.intercept.map((i) => i.event) };
  } finally {
    await host.shutdown();
  }
}

/** What `next` registers that `old` did not ("new tools: a, b"), and back ("intercepts removed: tool_call"). */
export function registrationChanges(old: Registrations, next: Registrations): { added: string[]; removed: string[] } {
  const out = { added: [] as string[], removed: [] as string[] };
  const kinds: [keyof Registrations, string][] = [
    ["commands", "commands"],
    ["tools", "tools"],
    ["intercept", "intercepts"],
    ["events", "events"],
  ];
  for (const [key, label] of kinds) {
    const added = next[key].filter((x) => !old[key].includes(x));
    const removed = old[key].filter((x) => !next[key].includes(x));
    if (added.length > 0) out.added.push(`new ${label}: ${added.join(", ")}`);
    if (removed.length > 0) out.removed.push(`${label} removed: ${removed.join(", ")}`);
  }
  return out;
}
