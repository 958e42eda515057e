// /jail: the built-in file tools may only touch paths inside the working directory (symlinks
// resolved, also for files that do not exist yet), and bash refuses the obvious ways out (a `cd`
// out of it, sudo, recursive chmod/chown, rm -rf of / or ~, mkfs, dd to a device). A guardrail
// against a model wandering off, not a sandbox: a shell command can still reach anything the user
// can. The rules follow the Go zot's.
import { realpathSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import type { JsonObject } from "../protocol.ts";
import { resolvePath } from "./tools/common.ts";

const BANNED = ["rm -rf /", "rm -rf ~", "rm -rf $HOME", "sudo ", "su ", "chmod -R ", "chown -R ", "mkfs", "dd if=", "dd of=/"];
const CD_OUT = /^cd\s+(\/|~|\$HOME|\.\.)/;

/** The directory the jail confines to: the cwd with symlinks resolved. */
export function jailRoot(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

/** Why a built-in tool call is refused in the jail rooted at `root`, or null when it may run. */
export function jailRefusal(tool: string, args: JsonObject, cwd: string, root: string): string | null {
  if (tool === "bash") return commandRefusal(typeof args.command === "string" ? args.command : "");
  if (tool !== "read" && tool !== "write" && tool !== "edit") return null;
  if (typeof args.path !== "string") return null;
  const target = canonical(resolvePath(cwd, args.path));
  if (target === root || target.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  return `jailed: ${args.path} is outside ${root}; /jail confines read, write and edit to the working directory (the user can lift it with /unjail).`;
}

function commandRefusal(command: string): string | null {
  const lower = command.toLowerCase();
  const banned = BANNED.find((b) => lower.includes(b.toLowerCase()));
  if (banned) return `jailed: the command contains "${banned.trim()}", which /jail refuses (the user can lift it with /unjail).`;
  for (const part of command.split(/;|&&|\|\||\||\n/)) {
    if (CD_OUT.test(part.trim())) return `jailed: "${part.trim()}" leaves the working directory, which /jail refuses (the user can lift it with /unjail).`;
  }
  return null;
}

/** The real path of `p`, or of its nearest existing ancestor with the rest appended (a new file in a symlinked directory). */
function canonical(p: string): string {
  let rest = "";
  let current = p;
  for (;;) {
    try {
      const real = realpathSync(current);
      return rest === "" ? real : join(real, rest);
    } catch {
      const parent = dirname(current);
      if (parent === current) return p;
      rest = rest === "" ? basename(current) : join(basename(current), rest);
      current = parent;
    }
  }
}
