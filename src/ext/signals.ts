// Signals of zot itself: extensions must not outlive it when it is interrupted or terminated.
import type { ExtensionHost } from "./types.ts";

/**
 * Makes SIGINT, SIGTERM and SIGHUP of zot shut every extension down before zot exits (with the
 * conventional 128+n status). main.ts installs it once per run; returns the uninstall function.
 */
export function shutdownOnSignals(host: ExtensionHost, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  const codes: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  const handlers = Object.entries(codes).map(([sig, code]) => {
    const handler = () => {
      void host.shutdown().finally(() => exit(code));
    };
    process.on(sig as NodeJS.Signals, handler);
    return [sig, handler] as const;
  });
  return () => {
    for (const [sig, handler] of handlers) process.off(sig as NodeJS.Signals, handler);
  };
}
