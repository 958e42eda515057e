// A scoped extension that fails with "Permission denied" was most likely stopped by its sandbox,
// not by the file's mode: say so, and name the `permissions` field that would allow the access,
// so the user (or the author) does not have to guess from a bare errno.
import { accessSync, constants, statSync } from "node:fs";
import type { Permissions } from "./scope.ts";

const DENIED = /permission denied|operation not permitted|\bEACCES\b|\bEPERM\b/i;

/** The sentence to add to an error whose last stderr line is `line`, for an extension with scope `p`; null when it is no denial. */
export function explainDenial(line: string, p: Permissions | null): string | null {
  if (!p || !DENIED.test(line)) return null;
  if (line.includes('"permissions.exec" is false')) return `the sandbox denied it: set "permissions.exec": true to let it start programs`;
  // The denied path is the last one on the line: "run.sh: 2: cannot open /x/key: Permission denied".
  const path = [...line.matchAll(/(\/[^\s:'"`,;()]+)/g)].pop()?.[1] ?? null;
  if (path && !p.exec && executable(path)) return `the sandbox denied it: starting ${path} needs "permissions.exec": true`;
  if (path) return `the sandbox denied it: add ${path} (or a folder holding it) to "permissions.fs.read", or to "permissions.fs.write" to change it`;
  return `the sandbox denied it: the extension's "permissions" do not allow this access (files: "fs.read"/"fs.write", programs: "exec", connections: "net")`;
}

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
