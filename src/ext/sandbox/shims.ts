// Version-manager shims (pyenv, rbenv, asdf, mise): `python3` on PATH is a small script (or a link to
// the manager) that asks the manager which interpreter to run. Inside a sandbox the manager's own
// programs are out of reach, so zot asks the manager once, outside it (`pyenv which python3`, run as
// the user with the user's environment, in the extension's directory as the shim would be), and
// starts the real interpreter directly. Only a shim that the user's own PATH finds for its name is
// followed (what typing `python3` in the user's shell would run anyway), and never one in the
// extension's or the project's folder: an extension (or a file another extension planted in a
// writable place) must not get a program of its choosing run outside the sandbox.
import { basename, isAbsolute } from "node:path";
import { lookPath } from "../../platform/exec-path.ts";
import { readAt } from "./elf.ts";
import { isWithin, realPath } from "../../platform/real-path.ts";

const MANAGERS = ["pyenv", "rbenv", "asdf", "mise"] as const;
const WHICH_TIMEOUT_MS = 5_000;

export type ShimContext = {
  /** The user's full environment: the manager reads its own variables (PYENV_ROOT, PYENV_VERSION…). */
  env: Record<string, string>;
  /** Where the shim would run: the extension's directory (its `.python-version` counts). */
  cwd: string;
  /** Folders whose programs are never run outside the sandbox: the extension's and the project's. */
  untrusted: string[];
};

export type Shim = { kind: "none" } | { kind: "resolved"; manager: string; program: string } | { kind: "error"; error: string };

/** The manager a shim hands over to: `exec "/root/.pyenv/libexec/pyenv" exec "$program"`, or a link to `mise`. */
function managerOf(file: string): { manager: string; path: string } | null {
  const target = realPath(file);
  if (basename(target) === "mise" && basename(file) !== "mise") return { manager: "mise", path: target };
  const text = new TextDecoder().decode(readAt(file, 0, 4096));
  if (!text.startsWith("#!")) return null;
  const m = /^\s*exec\s+"?([^"\s]+)"?\s+exec\s/m.exec(text);
  if (!m || !isAbsolute(m[1]!)) return null;
  const manager = MANAGERS.find((name) => basename(m[1]!) === name);
  return manager ? { manager, path: m[1]! } : null;
}

/** Whether `file` is a version-manager shim, and if so the interpreter it would run. */
export function resolveShim(file: string, ctx: ShimContext): Shim {
  const found = managerOf(file);
  if (!found) return { kind: "none" };
  const untrusted = ctx.untrusted.map(realPath);
  if ([file, realPath(file), found.path, realPath(found.path)].some((p) => untrusted.some((dir) => isWithin(p, dir))))
    return {
      kind: "error",
      error: `${file} looks like a ${found.manager} shim but lies in the extension's or the project's folder, so zot does not run it to find the interpreter; set "exec" to the interpreter itself`,
    };
  const name = basename(file);
  if (lookPath(name, ctx.env) !== file)
    return {
      kind: "error",
      error: `${file} looks like a ${found.manager} shim but is not what your PATH finds for ${JSON.stringify(name)}, so zot does not run it to find the interpreter; set "exec" to the interpreter itself`,
    };
  const r = Bun.spawnSync([found.path, "which", name], {
    cwd: ctx.cwd,
    env: ctx.env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: WHICH_TIMEOUT_MS,
  });
  const program = r.stdout.toString().trim().split("\n")[0] ?? "";
  if (r.exitCode !== 0 || !isAbsolute(program)) {
    const said = r.stderr.toString().trim().split("\n").pop() ?? "";
    return {
      kind: "error",
      error: `${file} is a ${found.manager} shim, and "${found.manager} which ${name}" found no interpreter${said ? ` (${said})` : ""}; install or select one for ${ctx.cwd}`,
    };
  }
  return { kind: "resolved", manager: found.manager, program };
}
