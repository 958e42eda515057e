// The workspace-trust question, asked on the terminal before the TUI starts and before any project
// code could run: what the folder's extensions and MCP servers would run, then trust / run without
// / quit.
import { isDumbTerminal } from "../platform/terminal.ts";
import { projectPrints } from "../ext/discovery.ts";
import { projectCode, type PendingServer, type TrustScope } from "../runtime/project-code.ts";
import { declineProject, trustDir, wasDeclined } from "../ext/install/trust.ts";
import type { DiscoveredExtension } from "../ext/types.ts";
import { KeyDecoder, type Key } from "./terminal/keys.ts";
import { processTerminal } from "./terminal/process-terminal.ts";
import { installRestoreHandlers } from "./terminal/terminal.ts";
import { TRUST_WARNING, trustListing } from "./components/trust-listing.ts";

/** `trusted`: approved now or before; `skip`: run without the unapproved code; `quit`: exit. */
export type TrustAnswer = "trusted" | "skip" | "quit";

/** The question for the extensions and MCP servers `pending` (untrusted, new or changed) of the project `cwd`. */
export function trustQuestion(cwd: string, pending: DiscoveredExtension[], servers: PendingServer[] = []): string {
  return [
    ...trustListing(cwd, pending, servers),
    "",
    TRUST_WARNING,
    "  t  trust this folder (and its subfolders) and run them",
    "  r  run without them (and do not ask again about these)",
    "  q  quit",
    "",
  ].join("\n");
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
  const term = processTerminal();
  const unhook = installRestoreHandlers(term);
  const decoder = new KeyDecoder();
  term.enter({ altScreen: false });
  term.write(question);
  return new Promise((resolveAnswer) => {
    let escTimer: ReturnType<typeof setTimeout> | null = null;
    const done = (a: TrustAnswer | "trust") => {
      if (escTimer) clearTimeout(escTimer);
      off();
      offEnd();
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
    const offEnd = term.onEnd(() => done("quit"));
  });
}

/** A line after the answer, on the terminal the question was asked on. */
function say(line: string): void {
  processTerminal().write(line);
}

/**
 * Asks about the project extensions and MCP servers of `cwd` (those in `scope`) that workspace trust
 * does not approve, if there are any and the user has not already chosen to run without exactly
 * these. Nothing of the project runs before the answer. Trusting records the folder and its current
 * extension and server sets; running without records that choice, so the same question is not
 * asked again (a new or changed extension or server is).
 */
export async function askTrust(home: string, cwd: string, scope: TrustScope): Promise<TrustAnswer> {
  const { found, pending, servers, pendingServers } = await projectCode(home, cwd, scope);
  if (pending.length === 0 && pendingServers.length === 0) return "trusted";
  const pendingPrints = projectPrints(pending).map((f) => f.print);
  const pendingServerPrints = pendingServers.map((s) => s.print);
  if (wasDeclined(home, cwd, pendingPrints, pendingServerPrints)) return "skip";
  const answer = await readAnswer(trustQuestion(cwd, pending, pendingServers));
  if (answer === "quit") {
    say("quit\n");
    return answer;
  }
  if (answer === "skip") {
    const d = declineProject(home, cwd, pendingPrints, pendingServerPrints);
    const remedy = isDumbTerminal(process.env) ? "zot ext trust lets them run" : "/trust or zot ext trust lets them run";
    say(d.ok ? `running without them; zot will not ask about them again (${remedy})\n` : `running without them (${d.error})\n`);
    return answer;
  }
  const r = trustDir(
    home,
    cwd,
    scope.extensions ? projectPrints(found).map((f) => f.print) : undefined,
    scope.servers ? servers.map((s) => s.print) : undefined,
  );
  if (!r.ok) {
    say(`zot: ${r.error} Running without its project extensions and MCP servers.\n`);
    return "skip";
  }
  say(`trusted ${r.path}\n`);
  return "trusted";
}
