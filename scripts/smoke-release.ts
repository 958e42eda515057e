// Smoke-tests one target of an already built release directory on the machine this runs on (the
// release workflow's native runners): the format check and the same smoke tests as `npm run release`.
//
//   bun scripts/smoke-release.ts <release dir> <target>
import { chmodSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { binaryFileName, findTarget, VERSION_FILE } from "../src/platform/targets.ts";
import { targetMismatch } from "./release/exe-format.ts";
import { smokeTest } from "./release/smoke.ts";

const [dir, name] = process.argv.slice(2);
const target = name ? findTarget(name) : undefined;
if (!dir || !target) {
  process.stderr.write("usage: bun scripts/smoke-release.ts <release dir> <target>\n");
  process.exit(2);
}
const version = readFileSync(join(dir, VERSION_FILE), "utf8").trim();
const binary = resolve(dir, binaryFileName(version, target));
// Workflow artifacts lose the executable bit on the way between jobs.
if (target.os !== "windows") chmodSync(binary, 0o755);
const mismatch = targetMismatch(readFileSync(binary), target);
if (mismatch) {
  process.stderr.write(`smoke: ${binary} is ${mismatch}\n`);
  process.exit(1);
}
const result = await smokeTest(binary, target, version);
if (!result.ran) {
  process.stderr.write(`smoke: ${target.name} could not run here: ${result.why}.\n`);
  process.exit(1);
}
if (result.problems.length > 0) {
  process.stderr.write(`smoke: ${target.name} failed ${result.via}:\n${result.problems.map((p) => `  ${p}\n`).join("")}`);
  process.exit(1);
}
process.stderr.write(`smoke: ${target.name} passed ${result.via}\n`);
