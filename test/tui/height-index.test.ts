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
