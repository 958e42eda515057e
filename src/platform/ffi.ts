// bun:ffi, loaded on first use: importing it costs every run ~2 ms of CPU at start-up, and a run
// calls into the C library only to confine something (Landlock, seccomp, namespaces).
import type * as Ffi from "bun:ffi";

export function bunFfi(): typeof Ffi {
  return require("bun:ffi") as typeof Ffi;
}

/** bun:ffi's `ptr`, which loads bun:ffi at its first call rather than at import. */
export const ptr: typeof Ffi.ptr = (view, byteOffset) => (byteOffset === undefined ? bunFfi().ptr(view) : bunFfi().ptr(view, byteOffset));
