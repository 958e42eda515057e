// The workspace-trust question, asked on the terminal before the TUI starts and before any project
// extension could run: what the folder's extensions would run, then trust / run without / quit.
import { discover, projectPrints } from "../ext/discovery.ts";
import { execLine, visible } from "../ext/exec-line.ts";
import { declineProject, trustDir, wasDeclined } from "../ext/trust.ts";
import type { DiscoveredExtension } from "../ext/types.ts";
import { KeyDecoder, type Key } from "./keys.ts";
import { installRestoreHandlers, Terminal } from "./terminal.ts";

/** `trusted`: approved now or before; `skip`: run without the unapproved extensions; `quit`: exit. */
export type TrustAnswer = "trusted" | "skip" | "quit";

/** The question for the extensions `pending` (untrusted, new or changed) of the project `cwd`. */
export function trustQuestion(cwd: string, pending: DiscoveredExtension[]): string {
  const changed = pending.some((e) => e.untrusted !== "untrusted");
  const lines = [
    changed
      ? `zot: project extensions in ${visible(cwd)} are new or changed since the folder was trusted:`
      : `zot: ${visible(cwd)} is not a trusted folder, and it has project extensions:`,
    "",
  ];
  for (const e of pending) {
    const m = e.manifest!;
    const tag = [e.untrusted === "new" ? "new" : e.untrusted === "changed" ? "changed" : "", m.enabled ? "" : "disabled in its manifest"].filter(Boolean);
    lines.push(`  ${visible(e.name)}${m.version ? ` ${visible(m.version)}` : ""}${tag.length ? ` (${tag.join(", ")})` : ""}`);
    if (m.description) lines.push(`    ${visible(m.description)}`);
    lines.push(`    runs:         ${execLine(m)}`);
    lines.push("    capabilities: none declared; it would run as you: your files, your network, your API keys");
  }
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
 * Asks about the project extensions of `cwd` that workspace trust does not approve, if there are
 * any and the user has not already chosen to run without exactly these. Nothing of the project runs
 * before the answer. Trusting records the folder and its current extension set; running without
 * records that choice, so the same question is not asked again (a new or changed extension is).
 */
export async function askTrust(home: string, cwd: string): Promise<TrustAnswer> {
  const found = await discover({ extPaths: [], noExt: false, cwd, home, trust: "store" });
  const pending = found.filter((e) => e.status === "untrusted" && e.manifest !== null);
  if (pending.length === 0) return "trusted";
  const pendingPrints = projectPrints(pending).map((f) => f.print);
  if (wasDeclined(home, cwd, pendingPrints)) return "skip";
  const answer = await readAnswer(trustQuestion(cwd, pending));
  if (answer === "quit") {
    process.stdout.write("quit\n");
    return answer;
  }
  if (answer === "skip") {
    const d = declineProject(home, cwd, pendingPrints);
    process.stdout.write(d.ok ? "running without them; zot will not ask about them again (zot ext trust lets them run)\n" : `running without them (${d.error})\n`);
    return answer;
  }
  const r = trustDir(home, cwd, projectPrints(found).map((f) => f.print));
  if (!r.ok) {
    process.stdout.write(`zot: ${r.error} Running without project extensions.\n`);
    return "skip";
  }
  process.stdout.write(`trusted ${r.path}\n`);
  return "trusted";
}
