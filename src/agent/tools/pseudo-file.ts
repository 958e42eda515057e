// Files of procfs and sysfs. Their size says 0 (or one page) whatever they hold, because the kernel
// makes the content when it is read; many separate fields with NUL bytes; and some hold secrets (a
// process environment, a command line with --api-key). `read` shows them as text, masked.
import { closeSync, constants, openSync, readSync } from "node:fs";

/** A pseudo file is read to its end up to this much. */
export const PSEUDO_MAX_BYTES = 1024 * 1024;

const PSEUDO_ROOTS = ["/proc/", "/sys/"];

/** A variable or flag whose name says it holds a credential. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE)/i;
const MASK = "[redacted]";

export function isPseudoFile(realPath: string): boolean {
  return PSEUDO_ROOTS.some((root) => realPath.startsWith(root));
}

/** Reads until end of file (not until the size stat gave), at most `max` bytes. */
export function readToEnd(path: string, max: number): { bytes: Buffer; truncated: boolean } {
  // O_NONBLOCK: a file that waits for data (/proc/kmsg) fails with EAGAIN instead of hanging zot.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const buf = Buffer.allocUnsafe(max + 1);
    let got = 0;
    while (got <= max) {
      // No position: procfs files are read as a stream.
      const n = readSync(fd, buf, got, max + 1 - got, null);
      if (n === 0) break;
      got += n;
    }
    return { bytes: buf.subarray(0, Math.min(got, max)), truncated: got > max };
  } finally {
    closeSync(fd);
  }
}

/**
 * Pseudo-file content as text: NUL separators (environ, cmdline) become line breaks, and values of
 * secret-named variables (`ANTHROPIC_API_KEY=…`) and flags (`--api-key …`, `--token=…`) are masked.
 */
export function presentPseudo(bytes: Buffer): Buffer {
  const text = bytes.toString("utf8").replace(/\0+$/, "").replace(/\0/g, "\n");
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const eq = line.indexOf("=");
    if (eq > 0 && SECRET_NAME.test(line.slice(0, eq)) && !/\s/.test(line.slice(0, eq))) {
      lines[i] = `${line.slice(0, eq + 1)}${MASK}`;
    } else if (/^--?[\w-]+$/.test(line) && SECRET_NAME.test(line) && i + 1 < lines.length) {
      lines[++i] = MASK;
    }
  }
  return Buffer.from(lines.join("\n"), "utf8");
}
