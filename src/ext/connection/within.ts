// Waiting for something, but only so long: shutdown deadlines and the drain of a dead extension's stderr.

/** Waits for `p` but at most `ms`; the timer never keeps zot alive. */
export async function within(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}
