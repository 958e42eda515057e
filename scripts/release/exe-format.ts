// What kind of executable a file is, read from its header: ELF, Mach-O or PE, and for which CPU.
// The release script uses it to check the artifacts it cannot run here (macOS, Windows) and to
// confirm the Linux ones are what their names say, musl included.
import type { ArchName, OsName, Target } from "../../src/platform/targets.ts";

export type ExeFormat = {
  os: OsName;
  arch: ArchName | `unknown (${string})`;
  musl: boolean;
  /** Mach-O only: has a code signature (ad hoc will do), without which macOS on arm64 kills the process. */
  signed?: boolean;
};

const hex = (n: number): string => `0x${n.toString(16)}`;

/** The format of an executable's first bytes (the first 64 KiB is plenty), or an error sentence. */
export function exeFormat(bytes: Uint8Array): ExeFormat | string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 64 && view.getUint32(0) === 0x7f454c46) return elf(bytes, view);
  if (bytes.length >= 8 && view.getUint32(0, true) === 0xfeedfacf) {
    const cpu = view.getUint32(4, true);
    const arch = cpu === 0x01000007 ? "x64" : cpu === 0x0100000c ? "arm64" : (`unknown (${hex(cpu)})` as const);
    return { os: "darwin", arch, musl: false, signed: hasCodeSignature(view) };
  }
  if (bytes.length >= 64 && bytes[0] === 0x4d && bytes[1] === 0x5a) {
    const pe = view.getUint32(0x3c, true);
    if (pe + 6 > bytes.length || view.getUint32(pe) !== 0x50450000) return "it starts with MZ but has no PE header";
    const machine = view.getUint16(pe + 4, true);
    const arch = machine === 0x8664 ? "x64" : machine === 0xaa64 ? "arm64" : (`unknown (${hex(machine)})` as const);
    return { os: "windows", arch, musl: false };
  }
  return "it is not an ELF, Mach-O (64-bit) or PE executable";
}

const LC_CODE_SIGNATURE = 0x1d;

function hasCodeSignature(view: DataView): boolean {
  if (view.byteLength < 32) return false;
  const count = view.getUint32(16, true);
  let at = 32; // the 64-bit Mach-O header
  for (let i = 0; i < count && at + 8 <= view.byteLength; i++) {
    if (view.getUint32(at, true) === LC_CODE_SIGNATURE) return true;
    const size = view.getUint32(at + 4, true);
    if (size < 8) return false;
    at += size;
  }
  return false;
}

function elf(bytes: Uint8Array, view: DataView): ExeFormat | string {
  if (bytes[4] !== 2 || bytes[5] !== 1) return "it is an ELF file but not 64-bit little-endian";
  const machine = view.getUint16(18, true);
  const arch = machine === 0x3e ? "x64" : machine === 0xb7 ? "arm64" : (`unknown (${hex(machine)})` as const);
  // The program interpreter names the C library: /lib/ld-musl-*.so.1 for musl.
  const phoff = Number(view.getBigUint64(32, true));
  const phentsize = view.getUint16(54, true);
  const phnum = view.getUint16(56, true);
  let musl = false;
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    if (at + 56 > bytes.length) break;
    if (view.getUint32(at, true) !== 3) continue; // PT_INTERP
    const off = Number(view.getBigUint64(at + 8, true));
    const size = Number(view.getBigUint64(at + 32, true));
    if (off + size <= bytes.length) musl = new TextDecoder().decode(bytes.subarray(off, off + size)).includes("ld-musl");
  }
  return { os: "linux", arch, musl };
}

/** Null when `bytes` is an executable for `target`; else a sentence saying what it is instead. */
export function targetMismatch(bytes: Uint8Array, target: Target): string | null {
  const found = exeFormat(bytes);
  if (typeof found === "string") return `not an executable for ${target.name}: ${found}.`;
  const want = `${target.os}-${target.arch}${target.musl ? "-musl" : ""}`;
  const got = `${found.os}-${found.arch}${found.musl ? "-musl" : ""}`;
  if (want !== got) return `built for ${got}, expected ${want}.`;
  if (found.signed === false) return "a Mach-O without a code signature, which macOS on Apple silicon refuses to run.";
  return null;
}
