// The prompt piped on stdin: read to its end, but never without bound (`yes | zot -p hi` must not
// eat the machine's memory), and never silently waiting on a pipe that says nothing.
import type { Result } from "../result.ts";
import { fstatSync } from "node:fs";

export const STDIN_MAX_BYTES = 16 * 1024 * 1024;
export const STDIN_HINT_MS = 2000;

export type StdinRead = Result<{ text: string }>;

/** A prompt can come down a pipe or from a file; /dev/null and terminals carry none. */
export function hasPipedInput(): boolean {
  try {
    const st = fstatSync(0);
    return st.isFIFO() || st.isFile() || st.isSocket();
  } catch {
    return false;
  }
}

/**
 * Reads stdin up to `max` bytes. When it is a pipe that has given nothing after `hintMs`, `hint`
 * is called once (a writer that never writes and never closes would otherwise look like a hang).
 */
export async function readPipedPrompt(opts: { max?: number; hintMs?: number; hint: () => void }): Promise<StdinRead> {
  const max = opts.max ?? STDIN_MAX_BYTES;
  let isPipe = false;
  try {
    isPipe = !fstatSync(0).isFile();
  } catch {
    // Checked by hasPipedInput already.
  }
  const reader = Bun.stdin.stream().getReader();
  let got = 0;
  const timer = isPipe ? setTimeout(() => got === 0 && opts.hint(), opts.hintMs ?? STDIN_HINT_MS) : undefined;
  const chunks: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      got += value.length;
      if (got > max) {
        return {
          ok: false,
          error: `the input piped on stdin is larger than ${max / (1024 * 1024)} MiB, so zot stopped reading it; pass a smaller prompt, or save the input to a file and ask zot to read that file.`,
        };
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => undefined);
  }
  return { ok: true, text: Buffer.concat(chunks).toString("utf8") };
}
