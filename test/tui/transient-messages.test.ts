import { expect, test } from "bun:test";
import { TransientMessages } from "../../src/tui/components/transient-messages.ts";
import { createStyle, dark } from "../../src/tui/terminal/theme.ts";

const plain = createStyle(dark, "none");

test("a new set replaces the lines shown before", () => {
  const s = new TransientMessages({ style: plain });
  s.set([{ text: "first", level: "info" }], 5000);
  s.set([{ text: "second", level: "error" }], 5000);
  expect(s.render(40)).toEqual(["second"]);
});

test("lines expire once their time is up, and expiring says whether any went", () => {
  const s = new TransientMessages({ style: plain });
  s.set([{ text: "brief", level: "warn" }], 60_000);
  expect(s.expire(Date.now())).toBe(false);
  expect(s.expire(Date.now() + 120_000)).toBe(true);
  expect(s.render(40)).toEqual([]);
});

test("clearing says whether there was anything to clear", () => {
  const s = new TransientMessages({ style: plain });
  expect(s.clear()).toBe(false);
  s.set([{ text: "x", level: "info" }], 5000);
  expect(s.clear()).toBe(true);
});

test("long lines wrap instead of being cut, and escape sequences are made inert", () => {
  const s = new TransientMessages({ style: plain });
  s.set([{ text: "reload failed; see /tmp/zot/logs/ext-demo.log \x1b[2J", level: "error" }], 5000);
  const lines = s.render(20);
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.join("")).toContain("ext-demo.log");
  expect(lines.join("")).not.toContain("\x1b[2J");
});
