import { expect, test } from "bun:test";
import { decodeIntercept } from "../../src/agent/intercept-record.ts";

test("a transcript's intercept object is decoded field by field; mistyped fields are dropped", () => {
  expect(decodeIntercept({ shown_text: "shown", rewritten_by: ["a", "b"], hidden: false, extra: 1 })).toEqual({
    shown_text: "shown",
    rewritten_by: ["a", "b"],
  });
  expect(decodeIntercept({ hidden: true, blocked_by: "g", reason: "r", args: { x: 1 }, result_rewritten_by: ["w"] })).toEqual({
    hidden: true,
    blocked_by: "g",
    reason: "r",
    args: { x: 1 },
    result_rewritten_by: ["w"],
  });
  expect(decodeIntercept({ rewritten_by: [1], shown_text: 5, args: [1] })).toBeUndefined();
  expect(decodeIntercept("nope")).toBeUndefined();
  expect(decodeIntercept(undefined)).toBeUndefined();
});
