// Signals of zot itself: extensions must not outlive it when it is interrupted or terminated.
import type { ExtensionHost } from "./types.ts";

/**
 * Makes SIGINT, SIGTERM and SIGHUP of zot shut every extension down before zot exits (with the
 * conventional 128+n status). `settle` runs first: a one-shot mode ends its turn there, so what
 * streamed is saved and its last events are written. main.ts installs it once per run; returns
 * the uninstall function.
 */
export function shutdownOnSignals(
  host: ExtensionHost,
  exit: (code: number) => void = (code) => process.exit(code),
  settle: () => Promise<void> = () => Promise.resolve(),
): () => void {
  const codes: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  let stopping = false;
  const handlers = Object.entries(codes).map(([sig, code]) => {
    const handler = () => {
      if (stopping) return;
      stopping = true;
      void settle()
        .catch(() => undefined)
        .then(() => host.shutdown())
        .finally(() => exit(code));
    };
    process.on(sig as NodeJS.Signals, handler);
    return [sig, handler] as const;
  });
  return () => {
    for (const [sig, handler] of handlers) process.off(sig as NodeJS.Signals, handler);
  };
}
