// `npm start -- args`: builds dist/zot when it is missing or older than any source file, then runs
// it with the given arguments on the inherited terminal and exits with its status.
import { constants } from "node:os";
import { join, resolve } from "node:path";
import { staleBuildProblem } from "./build-freshness.ts";

const root = resolve(import.meta.dir, "..");
const binary = join(root, "dist", "zot");

if (staleBuildProblem(root, binary) !== null) {
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
