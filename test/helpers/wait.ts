// Waiting for an outcome in tests: a bounded poll, never an assertion about how long it took.

/** Polls `probe` until it returns a truthy value and returns that; fails the test after `ms`. */
export async function waitFor<T>(probe: () => T | undefined | null | false, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await Bun.sleep(10);
  }
}
