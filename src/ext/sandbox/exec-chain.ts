// How a scoped extension is started: its `exec` followed through `#!` lines, `/usr/bin/env NAME`
// and version-manager shims to the one program the kernel finally runs, and the exact files that
// program needs (its loader and shared libraries). The launcher then executes that program directly
// with the scripts as its arguments, as the kernel would have, so the sandbox allows executing
// exactly one file, and an interpreter behind a shim (pyenv, rbenv, asdf, mise) runs without the
// shim's own programs.
import { basename, dirname } from "node:path";
import { lookPath } from "../../platform/exec-path.ts";
import { elfInfo, readAt, sharedLibraries } from "./elf.ts";
import { resolveShim, type ShimContext } from "./shims.ts";
import { realPath } from "../../platform/real-path.ts";

const MAX_DEPTH = 6;

/** `#!/usr/bin/env python3` → ["/usr/bin/env", "python3"]; the kernel passes what follows the interpreter as one argument. */
export function shebang(bytes: Uint8Array): { interpreter: string; arg: string | null } | null {
  if (bytes[0] !== 0x23 || bytes[1] !== 0x21) return null;
  let end = bytes.indexOf(0x0a);
  if (end < 0) end = bytes.length;
  const line = new TextDecoder().decode(bytes.subarray(2, end)).trim();
  const space = line.search(/\s/);
  if (line === "") return null;
  if (space < 0) return { interpreter: line, arg: null };
  const arg = line.slice(space).trim();
  return { interpreter: line.slice(0, space), arg: arg === "" ? null : arg };
}

export type ExecChain = {
  /** The command the launcher executes: the final program, then the scripts and arguments before `args`. */
  command: string[];
  /** The one program executed and its ELF loader: read and execute. */
  programs: string[];
  /** Scripts on the way (read only) and shared libraries (read only; mapping needs no execute right). */
  files: string[];
  /** Interpreter install trees (`…/versions/3.12.1` above `bin/`), before the secrets check. */
  trees: string[];
  /** What was resolved that a user would not guess: `python3 is a pyenv shim for …`. */
  notes: string[];
};

export type ChainResult = { ok: true; chain: ExecChain } | { ok: false; error: string };

/** The tree above an interpreter's `bin/`; null for the system trees, which are readable anyway. */
export function installPrefix(file: string): string | null {
  const dir = dirname(file);
  const prefix = basename(dir) === "bin" ? dirname(dir) : dir;
  if (prefix === "/" || prefix === "/usr" || prefix === "/usr/local" || prefix === "/bin" || prefix === "/usr/bin") return null;
  return prefix;
}

/**
 * Follows `exec` (absolute) to the program that runs it. `env` is the extension's own environment
 * (its PATH finds `env NAME`); `shims` says how a version manager may be asked where its real program is.
 */
export function execChain(exec: string, args: string[], env: Record<string, string | undefined>, shims: ShimContext): ChainResult {
  const files: string[] = [];
  const trees: string[] = [];
  const notes: string[] = [];
  const add = (list: string[], p: string | null) => {
    if (p && !list.includes(p)) list.push(p);
  };
  let before: string[] = [];
  let current = exec;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const shim = resolveShim(current, shims);
    if (shim.kind === "error") return { ok: false, error: shim.error };
    if (shim.kind === "resolved") {
      notes.push(`${basename(current)} is a ${shim.manager} shim (${current}); zot runs ${shim.program} directly`);
      current = shim.program;
      continue;
    }
    const file = realPath(current);
    add(trees, installPrefix(current));
    add(trees, installPrefix(file));
    const elf = elfInfo(file);
    if (elf) {
      const programs = [file];
      if (elf.interpreter) programs.push(realPath(elf.interpreter));
      for (const lib of sharedLibraries(file, env)) add(files, lib);
      return { ok: true, chain: { command: [current, ...before, ...args], programs, files, trees, notes } };
    }
    const sb = shebang(readAt(file, 0, 256));
    // Not ELF and no "#!": a program of another format (Mach-O, PE), which the kernel loads itself.
    if (!sb) return { ok: true, chain: { command: [current, ...before, ...args], programs: [file], files, trees, notes } };
    add(files, file);
    if (basename(sb.interpreter) === "env" && sb.arg !== null) {
      // env NAME, or env -S "NAME ARGS" (the one form of env options that names a program).
      const words = sb.arg.startsWith("-S") ? sb.arg.slice(2).trim().split(/\s+/) : [sb.arg];
      const [name, ...extra] = words;
      if (!name || name.startsWith("-"))
        return { ok: false, error: `the "#!" line of ${current} passes options to env that zot cannot follow; name the interpreter directly` };
      const found = name.includes("/") ? name : lookPath(name, env);
      if (!found)
        return { ok: false, error: `${current} runs ${JSON.stringify(name)} through env, which was not found on the extension's PATH (${env.PATH ?? ""})` };
      before = [...extra, current, ...before];
      current = found;
    } else {
      before = [...(sb.arg !== null ? [sb.arg] : []), current, ...before];
      current = sb.interpreter;
    }
  }
  return { ok: false, error: `${exec} goes through more than ${MAX_DEPTH} interpreters, so zot cannot follow it` };
}
