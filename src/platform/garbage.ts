// Collections paced by the garbage a long pass makes. Reading a long transcript, building a long
// history's wire bytes and streaming its body each make the transcript's size again in garbage: a
// row's text once parsed, a message's JSON string once encoded, a body chunk once sent. Left to
// the collector's own pace it piled up: a resumed 10 000-message session (47 MB) peaked at
// ~240 MiB, ~185 MiB with a young-generation collection every 4 MiB, for ~6 % more CPU on that
// resume (bench/RESULTS.md, "A resumed session's peak, collected as it goes"). A step makes
// kilobytes, so steps almost never pay one.

/** Characters or bytes of garbage between two collections. */
const COLLECT_AFTER = 4 * 1024 * 1024;

let since = 0;

/** Counts `size` units of garbage just made; past COLLECT_AFTER, a young-generation collection. */
export function madeGarbage(size: number): void {
  since += size;
  if (since < COLLECT_AFTER) return;
  since = 0;
  Bun.gc(false);
}
