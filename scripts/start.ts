// `npm start -- args`: builds dist/zot when it is missing or older than any source file, then runs
// it with the given arguments on the inherited terminal and exits with its status.
import { readdirSync, statSync } from "node:fs";
import { constants } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const binary = join(root, "dist", "zot");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const t = entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

function builtAt(): number | null {
  try {
    return statSync(binary).mtimeMs;
  } catch {
    return null;
  }
}

const built = builtAt();
const sources = Math.max(newestSource(join(root, "src")), statSync(join(root, "package.json")).mtimeMs);
if (built === null || built < sources) {
  // Build chatter goes to stderr so `npm start -- -p … > file` captures only zot's answer.
  const build = Bun.spawn([process.execPath, "run", "build"], { cwd: root, stdio: ["ignore", 2, 2] });
  const code = await build.exited;
  if (code !== 0) {
    process.stderr.write(`zot: building dist/zot failed (exit ${code}); see the bun build output above\n`);
    process.exit(code);
  }
}

const child = Bun.spawn([binary, ...process.argv.slice(2)], { stdio: ["inherit", "inherit", "inherit"] });
// The terminal sends Ctrl-C to the whole process group, so zot already has it; other signals aimed
// at this wrapper are passed on so zot can shut its extensions down.
process.on("SIGINT", () => {});
for (const sig of ["SIGTERM", "SIGHUP"] as const) process.on(sig, () => child.kill(sig));
const code = await child.exited;
const signal = child.signalCode;
process.exit(typeof signal === "string" ? 128 + (constants.signals[signal] ?? 0) : code);
