// The files the kernel must execute to start an extension: the exec itself, the interpreter of a
// `#!` script (through `/usr/bin/env NAME`), and each ELF program's loader. A sandbox that forbids
// execution still has to allow exactly these, and lets the interpreter read its own install tree.
import { closeSync, openSync, readSync, realpathSync } from "node:fs";
import { basename, dirname } from "node:path";
import { lookPath } from "../../platform/exec-path.ts";

const MAX_DEPTH = 4;

function head(path: string, bytes: number): Uint8Array {
  const buf = new Uint8Array(bytes);
  let fd: number | null = null;
  try {
    fd = openSync(path, "r");
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n);
  } catch {
    return new Uint8Array(0);
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** `#!/usr/bin/env python3 -u` → ["/usr/bin/env", "python3", "-u"]; null when not a script. */
export function shebang(bytes: Uint8Array): string[] | null {
  if (bytes[0] !== 0x23 || bytes[1] !== 0x21) return null;
  let end = bytes.indexOf(0x0a);
  if (end < 0) end = bytes.length;
  const line = new TextDecoder().decode(bytes.subarray(2, end)).trim();
  const parts = line.split(/\s+/).filter((p) => p !== "");
  return parts.length > 0 ? parts : null;
}

/** The PT_INTERP path of a 64-bit little-endian ELF file (its dynamic loader), or null. */
export function elfInterpreter(path: string): string | null {
  const h = head(path, 64);
  if (h.length < 64 || h[0] !== 0x7f || h[1] !== 0x45 || h[2] !== 0x4c || h[3] !== 0x46) return null;
  if (h[4] !== 2 || h[5] !== 1) return null;
  const dv = new DataView(h.buffer, h.byteOffset, h.byteLength);
  const phoff = Number(dv.getBigUint64(32, true));
  const phentsize = dv.getUint16(54, true);
  const phnum = dv.getUint16(56, true);
  const table = head(path, phoff + phentsize * phnum);
  if (table.length < phoff + phentsize * phnum) return null;
  const tv = new DataView(table.buffer, table.byteOffset, table.byteLength);
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    if (tv.getUint32(at, true) !== 3) continue; // PT_INTERP
    const offset = Number(tv.getBigUint64(at + 8, true));
    const size = Number(tv.getBigUint64(at + 32, true));
    const bytes = head(path, offset + size).subarray(offset, offset + size);
    const nul = bytes.indexOf(0);
    return new TextDecoder().decode(nul >= 0 ? bytes.subarray(0, nul) : bytes);
  }
  return null;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Every file execve will touch to start `exec`, real paths, in order, without repeats. */
export function execChain(exec: string, env: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  const add = (p: string) => {
    if (!out.includes(p)) out.push(p);
  };
  let current: string | null = exec;
  for (let depth = 0; current && depth < MAX_DEPTH; depth++) {
    const file = real(current);
    add(file);
    const interp = elfInterpreter(file);
    if (interp) {
      add(real(interp));
      break;
    }
    const sb = shebang(head(file, 256));
    if (!sb) break;
    const [interpreter, ...rest] = sb;
    if (basename(interpreter!) === "env" && rest.length > 0) {
      add(real(interpreter!));
      const envInterp = real(interpreter!);
      const ei = elfInterpreter(envInterp);
      if (ei) add(real(ei));
      const name = rest.find((a) => !a.startsWith("-")) ?? null;
      current = name ? lookPath(name, env) : null;
    } else current = interpreter!;
  }
  return out;
}

/**
 * Where an interpreter keeps its libraries: the tree above its `bin/` (a pyenv or nvm install,
 * node_modules/bun). Null for the system trees, which are readable anyway.
 */
export function installPrefix(file: string): string | null {
  const dir = dirname(file);
  const prefix = basename(dir) === "bin" ? dirname(dir) : dir;
  if (prefix === "/" || prefix === "/usr" || prefix === "/usr/local" || prefix === "/bin" || prefix === "/usr/bin") return null;
  return prefix;
}
