// The chat's heights by position (src/tui/components/height-index.ts) against a plain array: sums
// of the first positions, the total, and how many first positions reach a number of lines, after
// random appends and changes.
import { expect, test } from "bun:test";
import { HeightIndex } from "../../src/tui/components/height-index.ts";

test("sums and reaches exactly what a plain list of the shares does", () => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const index = new HeightIndex();
  const shares: number[] = [];
  const prefix = (k: number) => shares.slice(0, k).reduce((a, b) => a + b, 0);
  const reach = (target: number) => {
    if (target <= 0) return 0;
    let sum = 0;
    for (let k = 1; k <= shares.length; k++) if ((sum += shares[k - 1]!) >= target) return k;
    return shares.length + 1;
  };
  for (let step = 0; step < 3000; step++) {
    const share = random(4) === 0 ? 0 : 2 + random(40);
    // Mostly appends (the sweep), some changes in place (entries touched since).
    const i = random(10) < 6 || shares.length === 0 ? shares.length : random(shares.length);
    shares[i] = share;
    index.set(i, share);
    expect(index.size).toBe(shares.length);
    expect(index.total).toBe(prefix(shares.length));
    if (step % 50 === 0)
      for (let probe = 0; probe < 20; probe++) {
        const k = random(shares.length + 2);
        expect(index.prefix(k)).toBe(prefix(k));
        const target = random(prefix(shares.length) + 3) - 1;
        expect({ target, reach: index.reach(target) }).toEqual({ target, reach: reach(target) });
      }
  }
});

test("an index of positions not counted yet takes their shares in any order, the newest first", () => {
  const index = new HeightIndex(6);
  expect({ size: index.size, total: index.total, reach: index.reach(1) }).toEqual({ size: 6, total: 0, reach: 7 });
  // Counted back from the bottom, as the chat does after a resume.
  for (const [i, share] of [
    [5, 3],
    [4, 0],
    [3, 7],
  ] as const)
    index.set(i, share);
  expect(index.share(3)).toBe(7);
  expect(index.share(0)).toBe(0);
  expect(index.total).toBe(10);
  expect(index.prefix(4)).toBe(7);
  // The first line of the counted entries is in position 3: the ones before it have no share.
  expect(index.reach(1)).toBe(4);
  expect(index.reach(8)).toBe(6);
  index.set(6, 2);
  expect({ size: index.size, total: index.total }).toEqual({ size: 7, total: 12 });
});
