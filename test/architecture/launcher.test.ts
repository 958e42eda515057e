// The sandbox launcher (zot re-executed as `zot __sandbox …`: the agent's command server at every
// sandboxed session's start, the one-shot launcher, a scoped extension's start) loads no module
// that imports node:fs when it starts: that import costs a start ~2 ms of CPU. What the launcher
// loads at start is the static import closure of src/main.ts and src/ext/sandbox/launch.ts;
// platform/node-fs.ts gives node:fs to the paths that need it, at the call.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { src, staticSpecifiers } from "./source-text.ts";

const NODE_FS = new Set(["node:fs", "fs", "node:fs/promises", "fs/promises"]);

/** Each module loaded with `entry`, and the chain that loads node:fs, if one does. */
function loadsNodeFs(entry: string): string[] {
  const seen = new Set<string>();
  const chains: string[] = [];
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const s of staticSpecifiers(readFileSync(file, "utf8"), { types: false })) {
      if (NODE_FS.has(s)) chains.push([...chain, relative(src, file), s].join(" → "));
      else if (s.startsWith(".")) walk(resolve(dirname(file), s), [...chain, relative(src, file)]);
    }
  };
  walk(join(src, entry), []);
  return chains;
}

test("the launcher starts without node:fs: neither zot's entry nor the launcher imports it at load", () => {
  expect(loadsNodeFs("main.ts")).toEqual([]);
  expect(loadsNodeFs("ext/sandbox/launch.ts")).toEqual([]);
});

test("the rule follows static imports through modules and leaves out type-only and dynamic ones", () => {
  const text = `import type * as Fs from "node:fs";\nconst fs = await import("node:fs");\nimport { join } from "node:path";\nimport { readFileSync } from "node:fs";`;
  expect(staticSpecifiers(text, { types: false })).toEqual(["node:path", "node:fs"]);
  // The CLI does load it: the walk finds the chain.
  expect(loadsNodeFs("cli/dispatch.ts").length).toBeGreaterThan(0);
});
