// The leading elements of an array a test goes on to inspect, checked: a shorter array fails the
// test here, saying how many were expected, instead of as "undefined is not an object" later.

type Tuple<T, N extends number, R extends T[] = []> = R["length"] extends N ? R : Tuple<T, N, [...R, T]>;

/** The first `n` elements of `xs`; throws when `xs` has fewer. */
export function elements<T, N extends number>(xs: readonly T[], n: N): Tuple<T, N> {
  if (xs.length < n) throw new Error(`expected at least ${n} element(s), got ${xs.length}: ${JSON.stringify(xs)?.slice(0, 300)}`);
  return xs.slice(0, n) as Tuple<T, N>;
}

/** The last element of `xs`; throws when `xs` is empty. */
export function lastOf<T>(xs: readonly T[]): T {
  const [x] = elements(xs.slice(-1), 1);
  return x;
}
