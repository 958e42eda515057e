// What the dynamic loader needs to start an ELF program, read from the file itself: its loader
// (PT_INTERP) and the shared libraries it names (DT_NEEDED), found the way ld.so finds them
// (DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH with $ORIGIN, ld.so.conf, the default directories).
// A sandbox grants exactly these files instead of the trees around them.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import { realPath } from "../../platform/real-path.ts";

/** The first `bytes` bytes of `path` from `offset` (fewer at its end; none when unreadable). */
export function readAt(path: string, offset: number, bytes: number): Uint8Array {
  const buf = new Uint8Array(bytes);
  let fd: number | null = null;
  try {
    fd = openSync(path, "r");
    const n = readSync(fd, buf, 0, bytes, offset);
    return buf.subarray(0, n);
  } catch {
    return new Uint8Array(0);
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export type ElfInfo = { interpreter: string | null; needed: string[]; rpath: string[]; runpath: string[] };

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const PT_INTERP = 3;
const DT = { NULL: 0n, NEEDED: 1n, STRTAB: 5n, RPATH: 15n, RUNPATH: 29n };
const MAX_DYNAMIC_ENTRIES = 4096;

function cstring(bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  return new TextDecoder().decode(nul >= 0 ? bytes.subarray(0, nul) : bytes);
}

/** The loader and dynamic dependencies of a 64-bit little-endian ELF file; null when it is not one. */
export function elfInfo(path: string): ElfInfo | null {
  const h = readAt(path, 0, 64);
  if (h.length < 64 || h[0] !== 0x7f || h[1] !== 0x45 || h[2] !== 0x4c || h[3] !== 0x46) return null;
  if (h[4] !== 2 || h[5] !== 1) return null;
  const hv = new DataView(h.buffer, h.byteOffset, h.byteLength);
  const phoff = Number(hv.getBigUint64(32, true));
  const phentsize = hv.getUint16(54, true);
  const phnum = hv.getUint16(56, true);
  const table = readAt(path, phoff, phentsize * phnum);
  if (table.length < phentsize * phnum) return null;
  const tv = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const loads: { vaddr: bigint; offset: bigint; size: bigint }[] = [];
  let interpreter: string | null = null;
  let dynamic: { offset: number; size: number } | null = null;
  for (let i = 0; i < phnum; i++) {
    const at = i * phentsize;
    const type = tv.getUint32(at, true);
    const offset = tv.getBigUint64(at + 8, true);
    const vaddr = tv.getBigUint64(at + 16, true);
    const filesz = tv.getBigUint64(at + 32, true);
    if (type === PT_LOAD) loads.push({ vaddr, offset, size: filesz });
    else if (type === PT_INTERP) interpreter = cstring(readAt(path, Number(offset), Number(filesz)));
    else if (type === PT_DYNAMIC) dynamic = { offset: Number(offset), size: Number(filesz) };
  }
  const info: ElfInfo = { interpreter, needed: [], rpath: [], runpath: [] };
  if (!dynamic) return info;
  const dyn = readAt(path, dynamic.offset, Math.min(dynamic.size, MAX_DYNAMIC_ENTRIES * 16));
  const dv = new DataView(dyn.buffer, dyn.byteOffset, dyn.byteLength);
  const entries: { tag: bigint; value: bigint }[] = [];
  for (let at = 0; at + 16 <= dyn.length; at += 16) {
    const tag = dv.getBigInt64(at, true);
    if (tag === DT.NULL) break;
    entries.push({ tag, value: dv.getBigUint64(at + 8, true) });
  }
  const strtabAddr = entries.find((e) => e.tag === DT.STRTAB)?.value;
  const seg = strtabAddr === undefined ? undefined : loads.find((l) => strtabAddr >= l.vaddr && strtabAddr < l.vaddr + l.size);
  if (strtabAddr === undefined || !seg) return info;
  const strtab = Number(strtabAddr - seg.vaddr + seg.offset);
  const str = (offset: bigint) => cstring(readAt(path, strtab + Number(offset), 4096));
  for (const e of entries) {
    if (e.tag === DT.NEEDED) info.needed.push(str(e.value));
    else if (e.tag === DT.RPATH)
      info.rpath.push(
        ...str(e.value)
          .split(":")
          .filter((d) => d !== ""),
      );
    else if (e.tag === DT.RUNPATH)
      info.runpath.push(
        ...str(e.value)
          .split(":")
          .filter((d) => d !== ""),
      );
  }
  return info;
}

const DEFAULT_LIB_DIRS = ["/lib64", "/usr/lib64", "/lib", "/usr/lib"];
const MAX_LIBRARIES = 256;

/** The directories /etc/ld.so.conf names (one level of `include` globs, as distributions use it). */
function ldSoConfDirs(): string[] {
  const dirs: string[] = [];
  const readConf = (file: string, depth: number) => {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return;
    }
    for (const raw of text.split("\n")) {
      const line = raw.replace(/#.*/, "").trim();
      if (line.startsWith("include ") && depth === 0) {
        const pattern = line.slice(8).trim();
        const dir = dirname(pattern);
        const suffix = pattern.slice(dir.length + 1).replace(/^\*/, "");
        try {
          for (const name of readdirSync(dir).sort()) if (name.endsWith(suffix)) readConf(join(dir, name), depth + 1);
        } catch {
          // an include of a folder that is not there names nothing
        }
      } else if (line.startsWith("/")) dirs.push(line);
    }
  };
  readConf("/etc/ld.so.conf", 0);
  return dirs;
}

/**
 * Every shared library `program` loads (transitively), as real paths, found in the order ld.so
 * searches. A library that cannot be found is left out: the loader will say so when it starts.
 */
export function sharedLibraries(program: string, env: Record<string, string | undefined>): string[] {
  const libraryPath = (env.LD_LIBRARY_PATH ?? "").split(":").filter((d) => d !== "");
  const system = [...ldSoConfDirs(), ...DEFAULT_LIB_DIRS];
  const found: string[] = [];
  const queue = [realPath(program)];
  const seen = new Set(queue);
  while (queue.length > 0 && found.length < MAX_LIBRARIES) {
    const file = queue.shift()!;
    const info = elfInfo(file);
    if (!info) continue;
    const origin = dirname(file);
    const expand = (d: string) => d.replace(/\$\{ORIGIN\}|\$ORIGIN/g, origin);
    const dirs = [...(info.runpath.length === 0 ? info.rpath : []), ...libraryPath, ...info.runpath, ...system].map(expand);
    for (const name of info.needed) {
      const candidates = name.includes("/") ? [name] : dirs.map((d) => join(d, name));
      const hit = candidates.find((c) => existsSync(c) && elfInfo(c) !== null);
      if (!hit) continue;
      const lib = realPath(hit);
      if (seen.has(lib)) continue;
      seen.add(lib);
      found.push(lib);
      queue.push(lib);
    }
  }
  return found;
}
