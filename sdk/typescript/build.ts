// Builds the SDK into sdk/typescript/dist/ (gitignored): one ES module with the protocol inlined, plus
// declarations. The output lives inside the package directory so `npm install <zot>/sdk/typescript`
// resolves `main`/`types` without reaching outside it.
// Usage: bun sdk/typescript/build.ts [outDir]
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const here = import.meta.dir;
const repo = resolve(here, "../..");

/** Bundles `src/index.ts` into `<outDir>/index.js`; returns an error message or null. */
export async function bundle(outDir: string): Promise<string | null> {
  mkdirSync(outDir, { recursive: true });
  const built = await Bun.build({
    entrypoints: [join(here, "src/index.ts")],
    outdir: outDir,
    naming: "index.js",
    target: "node",
    format: "esm",
  });
  if (built.success) return null;
  return built.logs.map((l) => String(l)).join("\n");
}

/** Emits `.d.ts` files with tsc into `<outDir>/types` and an `<outDir>/index.d.ts` entry. */
export async function declarations(outDir: string): Promise<string | null> {
  const typesDir = join(outDir, "types");
  rmSync(typesDir, { recursive: true, force: true });
  const tsc = Bun.spawn([join(repo, "node_modules/.bin/tsc"), "-p", join(here, "tsconfig.json"), "--outDir", typesDir], {
    cwd: repo,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(tsc.stdout).text(), new Response(tsc.stderr).text(), tsc.exited]);
  if (code !== 0) return `tsc failed (exit ${code}):\n${stdout}${stderr}`;
  // Declarations keep the sources' `.ts` specifiers; consumers resolve `.js` in every module mode.
  for (const file of walk(typesDir)) {
    if (!file.endsWith(".d.ts")) continue;
    writeFileSync(file, readFileSync(file, "utf8").replace(/(from\s+"\.{1,2}\/[^"]*)\.ts"/g, '$1.js"'));
  }
  const entry = relative(outDir, join(typesDir, "sdk/typescript/src/index.js"));
  writeFileSync(join(outDir, "index.d.ts"), `export * from "./${entry}";\n`);
  return null;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

if (import.meta.main) {
  const outDir = resolve(process.argv[2] ?? join(here, "dist"));
  const failure = (await bundle(outDir)) ?? (await declarations(outDir));
  if (failure) {
    console.error(`SDK build failed: ${failure}`);
    process.exit(1);
  }
  console.log(`built ${relative(process.cwd(), join(outDir, "index.js"))} and index.d.ts`);
}
