// A request's `tools` field is made in one place (providers/tools-json.ts), which keeps its text
// while the tools stay the same: a wire that sets the field itself serialises ~8 KB of schemas again
// on every step.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { code, sources, src } from "./source-text.ts";

/** Where a text sets a `tools` field on an object that is not declared whole in place. */
function toolsFieldWrites(text: string): string[] {
  return [...code(text).matchAll(/[\w$]+\s*(?:\.\s*tools|\[\s*["']tools["']\s*\])\s*=(?!=)/g)].map((m) => m[0].replace(/\s+/g, ""));
}

test("no wire sets a request's tools field but through providers/tools-json.ts", () => {
  const module = join(src, "agent/providers/tools-json.ts");
  const violations = sources(join(src, "agent/providers"))
    .filter((file) => file !== module)
    .flatMap((file) => toolsFieldWrites(readFileSync(file, "utf8")).map((what) => `${relative(src, file)}: ${what}`));
  expect(violations).toEqual([]);
});

test("the tools-field rule finds an assignment and leaves comments, comparisons and declarations alone", () => {
  expect(toolsFieldWrites(`body.tools = list;\nbody["tools"] = list;`)).toEqual(["body.tools=", 'body["tools"]=']);
  expect(toolsFieldWrites(`// body.tools = list\nif (req.tools === x) {}\nconst m = { role: "system", tools };`)).toEqual([]);
});
