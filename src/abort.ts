// Listening to an AbortSignal. An abort event fires once: a listener added after it never runs, so
// work started while its call was being aborted would run on (a command whose start was awaited
// while the user pressed Esc kept running). Every listener goes through onAbort, which runs at once
// on a signal that has already aborted (test/architecture/abort.test.ts keeps it so).

/** Runs `fn` once when `signal` aborts, or now when it already has; returns what stops listening. */
export function onAbort(signal: AbortSignal | undefined, fn: () => void): () => void {
  if (!signal) return () => {};
  if (signal.aborted) {
    fn();
    return () => {};
  }
  signal.addEventListener("abort", fn, { once: true });
  return () => signal.removeEventListener("abort", fn);
}

/** Waits `ms`, or less: resolves as soon as `signal` aborts (at once when it already has). */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      unlisten();
      resolve();
    }, ms);
    const unlisten = onAbort(signal, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
