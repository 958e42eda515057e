// The chat's entry heights by position, summed in O(log n): a frame scrolled far back finds the
// entry its window starts at without walking every entry below it (issue 26 §1; bench/RESULTS.md,
// "TUI: a frame scrolled far back"). A Fenwick tree over each position's share, the entry's lines
// plus its separator as ChatLog counts them.
export class HeightIndex {
  private readonly shares: number[];
  /** 1-based: tree[k] is the sum of the shares of positions k - lowbit(k) … k - 1. */
  private readonly tree: number[];

  /** `size` positions, each with a share of 0 (not counted yet). */
  constructor(size = 0) {
    this.shares = new Array<number>(size).fill(0);
    this.tree = new Array<number>(size + 1).fill(0);
  }

  get size(): number {
    return this.shares.length;
  }

  /** The sum of every position's share. */
  get total(): number {
    return this.prefix(this.shares.length);
  }

  /** Position `i`'s share. */
  share(i: number): number {
    return this.shares[i] ?? 0;
  }

  /** Sets position `i`'s share: one already set, or the next (`size`). */
  set(i: number, share: number): void {
    if (i === this.shares.length) return this.append(share);
    const delta = share - this.shares[i]!;
    if (delta === 0) return;
    this.shares[i] = share;
    for (let k = i + 1; k < this.tree.length; k += k & -k) this.tree[k]! += delta;
  }

  /** The sum of the shares of the first `count` positions. */
  prefix(count: number): number {
    let sum = 0;
    for (let k = Math.min(count, this.shares.length); k > 0; k -= k & -k) sum += this.tree[k]!;
    return sum;
  }

  /** The fewest first positions whose shares add up to `target` or more: their count, or size + 1 when all of them do not. */
  reach(target: number): number {
    if (target <= 0) return 0;
    let at = 0;
    let rest = target;
    let step = 1;
    while (step * 2 < this.tree.length) step *= 2;
    for (; step > 0; step >>= 1) {
      const next = at + step;
      if (next < this.tree.length && this.tree[next]! < rest) {
        at = next;
        rest -= this.tree[next]!;
      }
    }
    return at + 1;
  }

  private append(share: number): void {
    this.shares.push(share);
    const k = this.shares.length;
    // tree[k] covers k - lowbit(k) … k - 1: this share and the ones before it in that range.
    this.tree.push(share + this.prefix(k - 1) - this.prefix(k - (k & -k)));
  }
}
