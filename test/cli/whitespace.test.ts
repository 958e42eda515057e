import { describe, expect, test } from "bun:test";
import { collapseSpaces, isSpace } from "../../src/cli/whitespace.ts";

describe("whitespace without a regex", () => {
  test("isSpace agrees with a regex's \\s on every UTF-16 code unit", () => {
    const re = /\s/;
    for (let c = 0; c <= 0xffff; c++) expect([c, isSpace(c)]).toEqual([c, re.test(String.fromCharCode(c))]);
  });

  test("collapseSpaces turns every whitespace run into one space, like replace(/\\s+/g, \" \")", () => {
    const samples = ["", "plain", " lead", "trail ", "a  b\t\tc\r\n\r\nd", "\u00a0x\u2028\u2029y\ufeff", "   ", "é \u3000 ü", "{\"command\":\"ls\\n -la\"}"];
    for (const s of samples) expect(collapseSpaces(s)).toBe(s.replace(/\s+/g, " "));
  });
});
