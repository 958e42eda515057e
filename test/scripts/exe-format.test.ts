import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { exeFormat, targetMismatch } from "../../scripts/release/exe-format.ts";
import { findTarget } from "../../src/platform/targets.ts";

const target = (name: string) => findTarget(name)!;

/** A 64-bit little-endian ELF header with one PT_INTERP program header naming `interp`. */
function elf(machine: number, interp: string): Uint8Array {
  const bytes = new Uint8Array(256);
  const v = new DataView(bytes.buffer);
  v.setUint32(0, 0x7f454c46);
  bytes[4] = 2;
  bytes[5] = 1;
  v.setUint16(18, machine, true);
  v.setBigUint64(32, 64n, true);
  v.setUint16(54, 56, true);
  v.setUint16(56, 1, true);
  v.setUint32(64, 3, true);
  v.setBigUint64(64 + 8, 160n, true);
  v.setBigUint64(64 + 32, BigInt(interp.length), true);
  bytes.set(new TextEncoder().encode(interp), 160);
  return bytes;
}

/** A 64-bit Mach-O header with two load commands: a segment, then a code signature unless `signed` is false. */
function macho(cputype: number, signed = true): Uint8Array {
  const bytes = new Uint8Array(128);
  const v = new DataView(bytes.buffer);
  v.setUint32(0, 0xfeedfacf, true);
  v.setUint32(4, cputype, true);
  v.setUint32(16, 2, true);
  v.setUint32(32, 0x19, true);
  v.setUint32(36, 72, true);
  v.setUint32(104, signed ? 0x1d : 0x26, true);
  v.setUint32(108, 16, true);
  return bytes;
}

function pe(machine: number): Uint8Array {
  const bytes = new Uint8Array(256);
  const v = new DataView(bytes.buffer);
  bytes[0] = 0x4d;
  bytes[1] = 0x5a;
  v.setUint32(0x3c, 0x80, true);
  v.setUint32(0x80, 0x50450000);
  v.setUint16(0x84, machine, true);
  return bytes;
}

test("ELF headers are read for their CPU and their C library", () => {
  expect(exeFormat(elf(0x3e, "/lib64/ld-linux-x86-64.so.2"))).toEqual({ os: "linux", arch: "x64", musl: false });
  expect(exeFormat(elf(0xb7, "/lib/ld-musl-aarch64.so.1"))).toEqual({ os: "linux", arch: "arm64", musl: true });
  expect(targetMismatch(elf(0xb7, "/lib/ld-musl-aarch64.so.1"), target("linux-arm64-musl"))).toBeNull();
  expect(targetMismatch(elf(0xb7, "/lib/ld-linux-aarch64.so.1"), target("linux-arm64-musl"))).toBe("built for linux-arm64, expected linux-arm64-musl.");
});

test("Mach-O headers are read for their CPU type", () => {
  expect(exeFormat(macho(0x0100000c))).toEqual({ os: "darwin", arch: "arm64", musl: false, signed: true });
  expect(targetMismatch(macho(0x01000007), target("darwin-x64"))).toBeNull();
  expect(targetMismatch(macho(0x01000007), target("darwin-arm64"))).toBe("built for darwin-x64, expected darwin-arm64.");
  expect(targetMismatch(macho(0x12), target("darwin-arm64"))).toBe("built for darwin-unknown (0x12), expected darwin-arm64.");
});

test("a Mach-O without a code signature is refused, since macOS on Apple silicon will not run it", () => {
  expect(exeFormat(macho(0x0100000c, false))).toMatchObject({ signed: false });
  expect(targetMismatch(macho(0x0100000c, false), target("darwin-arm64"))).toBe(
    "a Mach-O without a code signature, which macOS on Apple silicon refuses to run.",
  );
});

test("PE headers are read for their machine type", () => {
  expect(targetMismatch(pe(0x8664), target("windows-x64"))).toBeNull();
  expect(targetMismatch(pe(0xaa64), target("windows-x64"))).toBe("built for windows-arm64, expected windows-x64.");
  const noPe = pe(0x8664);
  noPe[0x80] = 0;
  expect(targetMismatch(noPe, target("windows-x64"))).toBe("not an executable for windows-x64: it starts with MZ but has no PE header.");
});

test("a file that is no executable at all is named as such", () => {
  expect(targetMismatch(new TextEncoder().encode("#!/bin/sh\necho hi\n"), target("linux-x64"))).toBe(
    "not an executable for linux-x64: it is not an ELF, Mach-O (64-bit) or PE executable.",
  );
});

test("the binary npm run build produced here is recognised as this machine's", () => {
  const zot = readFileSync(join(resolve(import.meta.dir, "../.."), "dist", "zot"));
  const found = exeFormat(zot);
  expect(found).toMatchObject({ os: process.platform === "darwin" ? "darwin" : "linux", arch: process.arch });
});
