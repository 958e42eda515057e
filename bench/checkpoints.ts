// What a checkpoint costs: `Checkpoints.record` on a copy of a repository (default: this one, its
// tracked files, without node_modules/dist), measured cold (every file read and stored), warm (no
// change: the stat cache answers; in a new process, and in the same one as later prompts are), after 10 files changed, and the plan and restore of a rewind.
// The store is a fresh temp $ZOT_HOME/checkpoints; `git status` on the same copy is timed for scale. Run: `bun bench/checkpoints.ts [repo] [rounds]`.
// Prints medians in ms.
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Checkpoints } from "../src/agent/checkpoints.ts";
import { DEFAULT_PRUNE } from "../src/agent/checkpoint-store.ts";

const source = resolve(process.argv[2] ?? join(import.meta.dir, ".."));
const ROUNDS = Number(process.argv[3] ?? 9);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const time = (fn: () => void): number => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};

const tracked = Bun.spawnSync(["git", "-C", source, "ls-files"]).stdout.toString().trim().split("\n").filter(Boolean);
const samples = {
  cold: [] as number[],
  warm: [] as number[],
  "warm, same process": [] as number[],
  changed: [] as number[],
  plan: [] as number[],
  restore: [] as number[],
  "git status": [] as number[],
};
let files = 0;
let bytes = 0;
for (let round = 0; round < ROUNDS; round++) {
  const dir = mkdtempSync(join(tmpdir(), "zot-bench-cp-"));
  try {
    const ws = join(dir, "repo");
    for (const f of tracked) cpSync(join(source, f), join(ws, f), { recursive: true });
    // Copies older than the cache's two-second window, as files in a repository are.
    const past = new Date(Date.now() - 60_000);
    for (const f of tracked) utimesSync(join(ws, f), past, past);
    const cp = () => new Checkpoints(join(dir, "home", "checkpoints"), ws, { exclude: [join(dir, "home")], scan: true, prune: DEFAULT_PRUNE });
    let r: ReturnType<Checkpoints["record"]> | undefined;
    samples.cold.push(time(() => (r = cp().record("p0"))));
    if (r?.ok) ({ files, stored: bytes } = r);
    // A new process each time: the stat cache is read from disk, as a new zot run would.
    samples.warm.push(time(() => cp().record("p1")));
    // The next prompts of a run: one Checkpoints for the session, its stat cache in memory.
    const session = cp();
    session.record("p1b");
    samples["warm, same process"].push(time(() => session.record("p1c")));
    for (const f of tracked.slice(0, 10)) writeFileSync(join(ws, f), readFileSync(join(ws, f), "utf8") + "\n// changed\n");
    samples.changed.push(time(() => cp().record("p2")));
    const c = cp();
    samples.plan.push(time(() => c.plan("p0")));
    samples.restore.push(time(() => c.restore("p0", "code", null)));
    // For scale: git's own look at the same tree, index warm.
    const git = (...args: string[]) => Bun.spawnSync(["git", "-C", ws, "-c", "user.name=b", "-c", "user.email=b@b", ...args]);
    git("init", "-q");
    git("add", "-A");
    git("status", "--porcelain");
    samples["git status"].push(time(() => git("status", "--porcelain")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`${files} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${ROUNDS} rounds (medians):`);
for (const [name, xs] of Object.entries(samples)) console.log(`  ${name.padEnd(19)} ${median(xs).toFixed(1)} ms`);
