// The workspace-trust question, asked on the terminal before the TUI starts and before any project
// code could run: what the folder's extensions and MCP servers would run, then trust / run without
// / quit.
import { discover, projectPrints } from "../ext/discovery.ts";
import { commandLine, execLine, serverTarget, visible, writtenText } from "../ext/exec-line.ts";
import { declineProject, reviewServers, trustDir, wasDeclined, type Unapproved } from "../ext/trust.ts";
import type { DiscoveredExtension } from "../ext/types.ts";
import { isObject, type Json } from "../json.ts";
import { projectServers, type ProjectServer } from "../mcp/config.ts";
import { KeyDecoder, type Key } from "./keys.ts";
import { installRestoreHandlers, Terminal } from "./terminal.ts";

/** `trusted`: approved now or before; `skip`: run without the unapproved code; `quit`: exit. */
export type TrustAnswer = "trusted" | "skip" | "quit";

/** A project MCP server workspace trust does not approve, and why. */
export type PendingServer = ProjectServer & { why: Unapproved["why"] };

/** Which kinds of project code this run would load (`--no-ext`, `--no-mcp` leave one out). */
export type TrustScope = { extensions: boolean; servers: boolean };

const RUNS_AS_YOU = "    capabilities: none declared; it would run as you: your files, your network, your API keys";

/** The question for the extensions and MCP servers `pending` (untrusted, new or changed) of the project `cwd`. */
export function trustQuestion(cwd: string, pending: DiscoveredExtension[], servers: PendingServer[] = []): string {
  const changed = pending.some((e) => e.untrusted !== "untrusted") || servers.some((s) => s.why !== "untrusted");
  const what = pending.length && servers.length ? "project extensions and MCP servers" : servers.length ? "project MCP servers" : "project extensions";
  const lines = [
    changed ? `zot: ${what} in ${visible(cwd)} are new or changed since the folder was trusted:` : `zot: ${visible(cwd)} is not a trusted folder, and it has ${what}:`,
    "",
  ];
  for (const e of pending) {
    const m = e.manifest!;
    const tag = [e.untrusted === "new" ? "new" : e.untrusted === "changed" ? "changed" : "", m.enabled ? "" : "disabled in its manifest"].filter(Boolean);
    lines.push(`  ${visible(e.name)}${m.version ? ` ${visible(m.version)}` : ""}${tag.length ? ` (${tag.join(", ")})` : ""}`);
    if (m.description) lines.push(`    ${visible(m.description)}`);
    lines.push(`    runs:         ${execLine(m)}`);
    lines.push(RUNS_AS_YOU);
  }
  for (const s of servers) lines.push(...serverLines(s));
  lines.push(
    "",
    "These programs come with the folder (a cloned repository, for one). Only trust folders you trust.",
    "  t  trust this folder (and its subfolders) and run them",
    "  r  run without them (and do not ask again about these)",
    "  q  quit",
    "",
  );
  return lines.join("\n");
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

function answerFor(k: Key): TrustAnswer | "trust" | null {
  if (k.name === "esc") return "quit";
  if (k.name !== "rune" || !k.text) return null;
  const t = k.text.toLowerCase();
  if (k.ctrl) return t === "c" || t === "d" ? "quit" : null;
  if (t === "t" || t === "y") return "trust";
  if (t === "r" || t === "n") return "skip";
  if (t === "q") return "quit";
  return null;
}

/** Shows `question` and reads one answer key. Raw mode comes first, so a key typed early is not echoed. */
function readAnswer(question: string): Promise<TrustAnswer | "trust"> {
  const term = new Terminal(process.stdin, process.stdout);
  const unhook = installRestoreHandlers(term);
  const decoder = new KeyDecoder();
  term.enter({ altScreen: false });
  term.write(question);
  return new Promise((resolveAnswer) => {
    let escTimer: ReturnType<typeof setTimeout> | null = null;
    const done = (a: TrustAnswer | "trust") => {
      if (escTimer) clearTimeout(escTimer);
      off();
      process.stdin.off("end", onEnd);
      term.restore();
      unhook();
      resolveAnswer(a);
    };
    const handle = (keys: Key[]) => {
      for (const k of keys) {
        const a = answerFor(k);
        if (a) return done(a);
      }
    };
    const off = term.onData((s) => {
      if (escTimer) clearTimeout(escTimer);
      handle(decoder.feed(s));
      // A lone ESC is the esc key only when nothing follows it.
      if (decoder.pending) escTimer = setTimeout(() => handle(decoder.flush()), 30);
    });
    const onEnd = () => done("quit");
    process.stdin.once("end", onEnd);
  });
}

/**
 * Asks about the project extensions and MCP servers of `cwd` (those in `scope`) that workspace trust
 * does not approve, if there are any and the user has not already chosen to run without exactly
 * these. Nothing of the project runs before the answer. Trusting records the folder and its current
 * extension and server sets; running without records that choice, so the same question is not
 * asked again (a new or changed extension or server is).
 */
export async function askTrust(home: string, cwd: string, scope: TrustScope): Promise<TrustAnswer> {
  const found = scope.extensions ? await discover({ extPaths: [], noExt: false, cwd, home, trust: "store" }) : [];
  const pending = found.filter((e) => e.status === "untrusted" && e.manifest !== null);
  const servers = scope.servers ? projectServers(cwd) : [];
  const why = new Map(reviewServers(home, cwd, servers.map((s) => s.print), "store").unapproved.map((u) => [u.name.toLowerCase(), u.why]));
  const pendingServers = servers.flatMap((s) => {
    const w = why.get(s.name.toLowerCase());
    return w === undefined ? [] : [{ ...s, why: w }];
  });
  if (pending.length === 0 && pendingServers.length === 0) return "trusted";
  const pendingPrints = projectPrints(pending).map((f) => f.print);
  const pendingServerPrints = pendingServers.map((s) => s.print);
  if (wasDeclined(home, cwd, pendingPrints, pendingServerPrints)) return "skip";
  const answer = await readAnswer(trustQuestion(cwd, pending, pendingServers));
  if (answer === "quit") {
    process.stdout.write("quit\n");
    return answer;
  }
  if (answer === "skip") {
    const d = declineProject(home, cwd, pendingPrints, pendingServerPrints);
    process.stdout.write(d.ok ? "running without them; zot will not ask about them again (zot ext trust lets them run)\n" : `running without them (${d.error})\n`);
    return answer;
  }
  const r = trustDir(home, cwd, scope.extensions ? projectPrints(found).map((f) => f.print) : undefined, scope.servers ? servers.map((s) => s.print) : undefined);
  if (!r.ok) {
    process.stdout.write(`zot: ${r.error} Running without its project extensions and MCP servers.\n`);
    return "skip";
  }
  process.stdout.write(`trusted ${r.path}\n`);
  return "trusted";
}
