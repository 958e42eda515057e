// What a command the sandbox stopped looks like from outside, turned into a sentence the model can
// act on. The kernel only says EACCES, EPERM, EROFS or "network unreachable", in each program's own
// words; the paths in those messages are checked against the same policy the sandbox was built
// from, so a note names a path only when the policy really forbids it.
import { isAbsolute, resolve } from "node:path";
import { LAUNCHER_PREFIX } from "../../platform/confine.ts";
import { blockedSentence, NO_NETWORK, readBlock, writeBlock, type SandboxPolicy } from "./policy.ts";

const FS_DENIED = /permission denied|operation not permitted|read-only file system|EACCES|EPERM|EROFS/i;
const NET_DENIED =
  /network is unreachable|could not resolve host|temporary failure in name resolution|name or service not known|no address associated|getaddrinfo|ENOTFOUND|EAI_AGAIN|ENETUNREACH|connection refused|failed to connect|nodename nor servname/i;

/** Quoted names and absolute paths in a line: where programs put the file they could not open. */
function pathsIn(full: string): string[] {
  // The program's own name leads its messages ("/bin/sh: 1: eval: cannot create …", "cat: x: …").
  const line = full.replace(/^[^\s:]+:( \d+:)?( eval:)? /, "");
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']+)'|‘([^’]+)’|"([^"]+)"|`([^`]+)'/g)) out.push((m[1] ?? m[2] ?? m[3] ?? m[4])!);
  for (const m of line.matchAll(/(?:^|[\s:=(])(\/[^\s:'"`),]+)/g)) out.push(m[1]!);
  // sh: 1: cannot create x: Permission denied
  for (const m of line.matchAll(/cannot (?:create|open|remove|touch|access) (?:directory )?([^\s:'"‘]+):/g)) out.push(m[1]!);
  return out;
}

export type Denial = { sentence: string };

/** The sandbox's part in a failed or suspicious command, or null when nothing points to it. */
export function sandboxDenial(p: SandboxPolicy | undefined, command: string, output: string, cwd: string): Denial | null {
  if (!p || p.mode === "off") return null;
  const launcher = output.split("\n").find((l) => l.startsWith(LAUNCHER_PREFIX));
  if (launcher) return { sentence: `blocked by the sandbox: ${launcher.slice(LAUNCHER_PREFIX.length).trim()}` };
  const found: string[] = [];
  for (const line of output.split("\n")) {
    if (!FS_DENIED.test(line)) continue;
    for (const raw of pathsIn(line)) {
      const path = isAbsolute(raw) ? raw : resolve(cwd, raw);
      const why = readBlock(p, path) ?? writeBlock(p, path);
      if (why && !found.includes(why)) found.push(why);
    }
  }
  if (!p.network && NET_DENIED.test(output)) found.push(NO_NETWORK);
  // A hidden directory reads as empty to root: say so when the command names one.
  for (const h of p.hidden) {
    const home = h.startsWith(p.userHome + "/") ? h.slice(p.userHome.length) : null;
    const named = command.includes(h) || (home !== null && (command.includes("~" + home) || command.includes("$HOME" + home)));
    const why = named ? readBlock(p, h) : null;
    if (why && !found.includes(why)) found.push(why);
  }
  return found.length > 0 ? { sentence: blockedSentence(p, found) } : null;
}
