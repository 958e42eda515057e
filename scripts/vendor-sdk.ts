// Copies the TypeScript SDK, bundled into one module, into the examples that carry their own copy
// (so they need nothing outside their directory and run under a permission scope), the way
// `zot ext init --lang python --sdk` copies zot_ext.py beside an extension.
// Usage: bun scripts/vendor-sdk.ts          writes the copies
//        bun scripts/vendor-sdk.ts --check  exits 1 when a copy is not what the SDK bundles to now
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { bundle } from "../sdk/typescript/build.ts";

const repo = resolve(import.meta.dir, "..");

/** The examples with a bundled SDK beside their program. */
export const VENDORED = [join(repo, "examples/extensions/weather/zot-ext.js")];

const HEADER =
  "// The zot TypeScript SDK (sdk/typescript in the zot repository), bundled into one module by\n// scripts/vendor-sdk.ts so this extension needs nothing outside its directory. Do not edit: run the script.\n";

/** What each copy should hold: the SDK as it bundles now. */
export async function vendoredText(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), "zot-vendor-sdk-"));
  try {
    const failure = await bundle(out);
    if (failure) throw new Error(`bundling the SDK failed: ${failure}`);
    // Bun names each bundled module in a comment relative to the working directory: made relative to the repository, the copy is the same from anywhere.
    const text = readFileSync(join(out, "index.js"), "utf8").replace(
      /^\/\/ (\S+\.ts)$/gm,
      (_, path: string) => `// ${relative(repo, resolve(process.cwd(), path))}`,
    );
    return HEADER + text;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const want = await vendoredText();
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const path of VENDORED) {
    let have = "";
    try {
      have = readFileSync(path, "utf8");
    } catch {
      // Missing: written below, or stale in --check.
    }
    if (have === want) continue;
    if (check) {
      stale++;
      console.error(`${relative(repo, path)} is not the current SDK; run bun scripts/vendor-sdk.ts`);
    } else {
      writeFileSync(path, want);
      console.log(`wrote ${relative(repo, path)}`);
    }
  }
  process.exit(stale === 0 ? 0 : 1);
}
