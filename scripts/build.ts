// `npm run build`: compiles src/main.ts into dist/zot for this machine with the shared build flags
// (scripts/build-flags.ts), stamped with the commit, the date and the target.
import { join } from "node:path";
import { buildArgs, buildStamp, ROOT } from "./build-flags.ts";
import { hostTarget } from "./host-target.ts";

const target = hostTarget();
if (!target) {
  process.stderr.write(`zot: cannot build here: ${process.platform}-${process.arch} is not one of zot's release targets.\n`);
  process.exit(1);
}
const outfile = join(ROOT, "dist", target.os === "windows" ? "zot.exe" : "zot");
const build = Bun.spawn([process.execPath, "build", ...buildArgs(target, outfile, buildStamp(target), false)], {
  cwd: ROOT,
  stdio: ["ignore", "inherit", "inherit"],
});
process.exit(await build.exited);
