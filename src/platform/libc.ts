// The C library's system-call doors through Bun's FFI, loaded once on first use: what the kernel
// sandbox (Landlock, seccomp) needs and Bun does not offer. Linux only; glibc or musl.
import { bunFfi } from "./ffi.ts";

export type Libc = {
  syscall: (n: number, a: number | bigint, b: number | bigint, c: number | bigint, d: number | bigint) => bigint;
  prctl: (option: number, a: number, b: number, c: number, d: number) => number;
  open: (path: Uint8Array, flags: number) => number;
  close: (fd: number) => number;
  execve: (path: Uint8Array, argv: number, envp: number) => number;
  ioctl: (fd: number, request: number | bigint, arg: number) => number;
  __errno_location: () => number;
};

let loaded: Libc | null = null;

export function libc(): Libc | { error: string } {
  if (loaded) return loaded;
  const { dlopen, FFIType } = bunFfi();
  for (const name of ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"]) {
    try {
      const lib = dlopen(name, {
        syscall: { args: [FFIType.i64, FFIType.i64, FFIType.i64, FFIType.i64, FFIType.i64], returns: FFIType.i64 },
        prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
        open: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
        close: { args: [FFIType.i32], returns: FFIType.i32 },
        execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
        ioctl: { args: [FFIType.i32, FFIType.u64, FFIType.ptr], returns: FFIType.i32 },
        __errno_location: { args: [], returns: FFIType.ptr },
      });
      loaded = lib.symbols as unknown as Libc;
      return loaded;
    } catch {
      // try the next name: glibc and musl call their libc differently
    }
  }
  return { error: "no C library could be loaded for the sandbox's system calls" };
}

/** The calling thread's errno after a failed call. */
export function errno(c: Libc): number {
  return bunFfi().read.i32(c.__errno_location(), 0);
}

export function cString(s: string): Uint8Array {
  return new TextEncoder().encode(s + "\0");
}
