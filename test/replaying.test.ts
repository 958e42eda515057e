import { expect, test } from "bun:test";
import { Replaying } from "../src/replaying.ts";

test("values emitted before the first listener are replayed to it in order, the newest `limit` of them", () => {
  const r = new Replaying<number>(3);
  for (const n of [1, 2, 3, 4, 5]) r.emit(n);
  const first: number[] = [];
  const second: number[] = [];
  r.on((n) => first.push(n));
  r.on((n) => second.push(n));
  expect(first).toEqual([3, 4, 5]);
  expect(second).toEqual([]);
  r.emit(6);
  expect(first).toEqual([3, 4, 5, 6]);
  expect(second).toEqual([6]);
});

test("after the first listener nothing is held back, even when no one listens any more", () => {
  const r = new Replaying<string>(10);
  const off = r.on(() => {});
  off();
  r.emit("lost");
  const late: string[] = [];
  r.on((s) => late.push(s));
  expect(late).toEqual([]);
});

test("with an error handler a throwing listener does not stop the others; without one the error reaches the emitter", () => {
  const errors: string[] = [];
  const guarded = new Replaying<string>(1, (e, v) => errors.push(`${(e as Error).message} on ${v}`));
  const heard: string[] = [];
  guarded.on(() => {
    throw new Error("broken");
  });
  guarded.on((v) => heard.push(v));
  guarded.emit("x");
  expect(errors).toEqual(["broken on x"]);
  expect(heard).toEqual(["x"]);

  const plain = new Replaying<string>(1);
  plain.on(() => {
    throw new Error("loud");
  });
  expect(() => plain.emit("y")).toThrow("loud");
});
