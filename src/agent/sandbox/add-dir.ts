// /add-dir: one more directory the agent's commands and file tools may write, for the rest of this
// session, as `--add-dir` gives at start. The policy object is the one every command and tool reads,
// so the next call sees it.
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Result } from "../../result.ts";
import { unquotePath } from "../session-ops.ts";
import { readBlock, real, within, type SandboxPolicy } from "./policy.ts";

export function addWritableDir(p: SandboxPolicy, raw: string, cwd: string): Result<{ path: string }> {
  const given = unquotePath(raw);
  if (given === "") return { ok: false, error: "give the directory to make writable: /add-dir <path>" };
  const home = homedir();
  const abs = resolve(cwd, given === "~" ? home : given.startsWith("~/") ? join(home, given.slice(2)) : given);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    return { ok: false, error: `${abs} does not exist; create it first or give another directory` };
  }
  if (!isDir) return { ok: false, error: `${abs} is not a directory; /add-dir takes a directory` };
  const dir = real(abs);
  // A secret location stays hidden: making it writable would also make it readable.
  const hidden = readBlock(p, dir);
  if (hidden !== null) return { ok: false, error: `${hidden}; it cannot be made writable` };
  if (p.mode === "off") return { ok: true, path: dir };
  if (!p.writable.some((w) => within(dir, w))) p.writable.push(dir);
  return { ok: true, path: dir };
}
