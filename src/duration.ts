// How a span of time reads in a message: one format for every timeout, wait and deadline zot names.

/** "30 s", "0.3 s". */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
