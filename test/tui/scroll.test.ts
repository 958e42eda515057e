import { expect, test } from "bun:test";
import { ChatScroll } from "../../src/tui/scroll.ts";

test("scrolling never goes below the bottom", () => {
  const s = new ChatScroll();
  s.by(5);
  s.by(-8);
  expect(s.offset).toBe(0);
});

test("a page is the chat's height less two lines", () => {
  const s = new ChatScroll();
  s.settle({ offset: 0, chatHeight: 12 });
  s.page(1);
  expect(s.offset).toBe(10);
  s.page(-1);
  expect(s.offset).toBe(0);
});

test("while scrolled back, new lines below keep the view where it was", () => {
  const s = new ChatScroll();
  s.follow(100);
  s.by(10);
  s.follow(104);
  expect(s.offset).toBe(14);
});

test("at the bottom, new lines below leave the view at the bottom", () => {
  const s = new ChatScroll();
  s.follow(100);
  s.follow(104);
  expect(s.offset).toBe(0);
});

test("the layout's clamped offset is what the next scroll starts from", () => {
  const s = new ChatScroll();
  s.toTop();
  s.settle({ offset: 40, chatHeight: 20 });
  s.by(-5);
  expect(s.offset).toBe(35);
});
