import { expect, test } from "bun:test";
import { abortableSleep, onAbort } from "../src/abort.ts";

test("onAbort runs on the abort, once, and not after it stopped listening", () => {
  const a = new AbortController();
  let runs = 0;
  onAbort(a.signal, () => runs++);
  a.abort();
  a.abort();
  expect(runs).toBe(1);

  const b = new AbortController();
  let late = 0;
  onAbort(b.signal, () => late++)();
  b.abort();
  expect(late).toBe(0);
});

test("onAbort on a signal that has already aborted runs at once (an abort event never fires again)", () => {
  let runs = 0;
  onAbort(AbortSignal.abort(), () => runs++);
  expect(runs).toBe(1);
  expect(() => onAbort(undefined, () => runs++)()).not.toThrow();
  expect(runs).toBe(1);
});

test("abortableSleep ends at the abort, or at once when it already came", async () => {
  const a = new AbortController();
  const slept = abortableSleep(60_000, a.signal).then(() => "woke");
  a.abort();
  expect(await slept).toBe("woke");
  expect(await abortableSleep(60_000, AbortSignal.abort()).then(() => "woke")).toBe("woke");
});
