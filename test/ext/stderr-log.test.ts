// An extension's stderr is read by zot and written to its log through the mask, whole lines at a
// time: a secret split across writes or reads is still masked, an endless line is cut instead of
// held, and what it wrote before dying is in the log before its exit is reported.
import { describe, expect, test } from "bun:test";
import { readdirSync, readlinkSync } from "node:fs";
import { redactSecrets } from "../../src/redact.ts";
import { MAX_STDERR_LINE_BYTES, StderrLines } from "../../src/ext/connection/stderr-log.ts";
import { waitFor } from "../helpers/wait.ts";
import { signal } from "../helpers/processes.ts";
import { alive, start } from "./fixture-host.ts";

const KEY = "sk-ant-FAKE-stderr-0123456789abcdef";
const mask = (text: string) => redactSecrets(text, [KEY]);
const encoder = new TextEncoder();

/** The log text a sequence of stderr chunks becomes. */
function logOf(chunks: (string | Uint8Array)[], max?: number): string {
  let out = "";
  const lines = new StderrLines({ write: (text) => (out += mask(text)), mask }, max);
  for (const c of chunks) lines.push(typeof c === "string" ? encoder.encode(c) : c);
  lines.end();
  return out;
}

async function withKey<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.ANTHROPIC_API_KEY;
  process.env.ANTHROPIC_API_KEY = KEY;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
    else process.env.ANTHROPIC_API_KEY = saved;
  }
}

describe("stderr lines", () => {
  test("a key split across chunks at every position is masked whole", () => {
    const line = `key=${KEY} done\n`;
    for (let at = 1; at < line.length; at++) expect(logOf([line.slice(0, at), line.slice(at)])).toBe("key=sk-a…[redacted] done\n");
  });

  test("lines are written as they were, blank lines and carriage returns included, with a newline added to a last unfinished one", () => {
    expect(logOf(["one\n\n  \r\ntwo\r\n", "thr", "ee"])).toBe("one\n\n  \r\ntwo\r\nthree\n");
  });

  test("a UTF-8 character split across chunks arrives whole", () => {
    const bytes = encoder.encode("naïve ✓\n");
    for (let at = 1; at < bytes.length; at++) expect(logOf([bytes.subarray(0, at), bytes.subarray(at)])).toBe("naïve ✓\n");
  });

  test("a line over the limit is cut with a marker, the rest of it dropped, and the next line kept", () => {
    const long = "x".repeat(MAX_STDERR_LINE_BYTES * 3);
    const out = logOf([long.slice(0, 1000), long.slice(1000), "\nnext line\n"]);
    expect(out).toBe(`${"x".repeat(MAX_STDERR_LINE_BYTES)}… [zot: stderr line cut at ${MAX_STDERR_LINE_BYTES} bytes]\nnext line\n`);
  });

  test("a key that the cut falls inside is masked before the cut, so no piece of it is kept", () => {
    const out = logOf([`${"x".repeat(95)}${KEY}${"y".repeat(200)}\nafter\n`], 100);
    expect(out).toBe(`${"x".repeat(95)}sk-a…… [zot: stderr line cut at 100 bytes]\nafter\n`);
    expect(out).not.toContain(KEY.slice(4, 12));
  });
});

describe("extension stderr in the log", () => {
  test("a 1 MB stderr line is cut at the limit and the extension keeps working", async () => {
    const h = await start(["stderr-long"]);
    try {
      expect(h.host.states()[0]!.status).toBe("ready");
      const log = h.log("stderr-long");
      expect(log).toContain(`${"L".repeat(MAX_STDERR_LINE_BYTES)}… [zot: stderr line cut at ${MAX_STDERR_LINE_BYTES} bytes]\nafter the long line\n`);
      expect(log.length).toBeLessThan(MAX_STDERR_LINE_BYTES * 2);
    } finally {
      await h.close();
    }
  });

  test("an extension killed in the middle of a line has that line, masked, in its log and in its error", async () => {
    await withKey(async () => {
      const h = await start(["stderr-cut-off"], {}, undefined, mask);
      try {
        const s = h.host.states()[0]!;
        expect(s.error).toBe(
          `extension "stderr-cut-off" failed to load: it exited before hello with signal SIGKILL: "Error: the key sk-a…[redacted]" (log: ${s.log})`,
        );
        const log = h.log("stderr-cut-off");
        expect(log).toContain("\nError: the key sk-a…[redacted]\n[zot] process exited with signal SIGKILL\n");
        expect(log).not.toContain(KEY);
      } finally {
        await h.close();
      }
    });
  });

  test.skipIf(process.platform !== "linux")(
    "a child of its own session holding stderr open neither delays the exit report for good nor keeps zot's end of the pipe",
    async () => {
      const pipes = () =>
        readdirSync("/proc/self/fd")
          .map((fd) => {
            try {
              return readlinkSync(`/proc/self/fd/${fd}`);
            } catch {
              return "";
            }
          })
          .filter((l) => l.startsWith("pipe:")).length;
      const before = pipes();
      const h = await start(["stderr-held"]);
      const held = Number(h.log("stderr-held").match(/^held by (\d+)$/m)?.[1]);
      try {
        expect(alive(held)).toBe(true);
        const s = h.host.states()[0]!;
        expect(s.error).toBe(
          `extension "stderr-held" failed to load: it exited before hello with exit code 5: "Error: cannot reach the weather service" (log: ${s.log})`,
        );
        await h.close();
        await waitFor(() => pipes() <= before, 3_000);
        expect(pipes()).toBeLessThanOrEqual(before);
        expect(alive(held)).toBe(true);
      } finally {
        if (alive(held)) signal(held, "SIGKILL");
      }
    },
  );
});
