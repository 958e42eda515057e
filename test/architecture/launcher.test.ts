// The sandbox launcher (zot re-executed as `zot __sandbox …`: the agent's command server at every
// sandboxed session's start, the one-shot launcher, a scoped extension's start) loads no module
// that imports node:fs or node:path when it starts: those imports cost a start ~2 ms and ~0.7 ms of
// CPU. What the launcher loads at start is the static import closure of src/main.ts and
// src/ext/sandbox/launch.ts; platform/node-fs.ts gives node:fs to the paths that need it, at the call.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { src, staticSpecifiers } from "./source-text.ts";

const NODE_FS = new Set(["node:fs", "fs", "node:fs/promises", "fs/promises"]);
const NODE_PATH = new Set(["node:path", "path", "node:path/posix", "path/posix"]);

/** Each module loaded with `entry`, and the chain that loads one of `modules`, if one does. */
function loads(entry: string, modules: Set<string>): string[] {
  const seen = new Set<string>();
  const chains: string[] = [];
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const s of staticSpecifiers(readFileSync(file, "utf8"), { types: false })) {
      if (modules.has(s)) chains.push([...chain, relative(src, file), s].join(" → "));
      else if (s.startsWith(".")) walk(resolve(dirname(file), s), [...chain, relative(src, file)]);
    }
  };
  walk(join(src, entry), []);
  return chains;
}

const loadsNodeFs = (entry: string) => loads(entry, NODE_FS);

test("the launcher starts without node:fs and node:path: neither zot's entry nor the launcher imports them at load", () => {
  for (const modules of [NODE_FS, NODE_PATH]) {
    expect(loads("main.ts", modules)).toEqual([]);
    expect(loads("ext/sandbox/launch.ts", modules)).toEqual([]);
  }
});

test("the rule follows static imports through modules and leaves out type-only and dynamic ones", () => {
  const text = `import type * as Fs from "node:fs";\nconst fs = await import("node:fs");\nimport { join } from "node:path";\nimport { readFileSync } from "node:fs";`;
  expect(staticSpecifiers(text, { types: false })).toEqual(["node:path", "node:fs"]);
  // The CLI does load them: the walk finds the chains.
  expect(loadsNodeFs("cli/dispatch.ts").length).toBeGreaterThan(0);
  expect(loads("cli/dispatch.ts", NODE_PATH).length).toBeGreaterThan(0);
});
