// What each stretch of zot's history added to a run (issue 26 §2: "bisect between 15d8dcf and
// today's main"). Builds commits of this repository's first-parent history, each in a temporary
// git worktree (node_modules linked from this checkout, so every build uses the same Bun, and its
// own `npm run build`, so each is built with the flags it shipped with), then runs the same
// scenarios against all of them in interleaved rounds, so every build sees the same load:
//   version  `zot --version`
//   echo     one prompt, the model calls `bash` once, the C guard intercepts tool_call
//   loop50   one prompt, the model calls `bash` 50 times, no extension
// echo and loop50 run with `--sandbox off` on builds that have a sandbox (it came after 15d8dcf and
// has its own measured cost; the Go zot has none), so the rows compare the same work.
//
// Each row: wall time (spawn to exit, /usr/bin/time included, the same for all), CPU time (every
// process the run started, see harness.ts `sample`) and peak RSS, medians, and the change from the
// row above, with the commit's subject, so a step up points at the merge that made it.
//
//   bun bench/history.ts [runs] [points] [from] [to]     (default 11 runs, 8 points, 15d8dcf..HEAD)
//   bun bench/history.ts [runs] --commits A,B,…          (exactly these commits, in this order)
//
// `points` commits evenly spaced along `from..to` (first parent), `from` and `to` included. The
// worktrees and builds live in a temporary directory removed at the end; nothing in this checkout
// changes.
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildEnv, compileGuard, cpuMethod, machine, median, printArgs, sample, unsandboxed } from "./harness.ts";
import { startScriptedModel } from "./scripted-model.ts";

const ROOT = resolve(import.meta.dir, "..");
const RUNS = Number(process.argv[2] ?? 11);

function git(...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr.toString().trim()}`);
  return r.stdout.toString().trim();
}

/** The commits to build, oldest first. */
function commits(): string[] {
  if (process.argv[3] === "--commits") {
    const list = (process.argv[4] ?? "").split(",").filter((c) => c !== "");
    if (list.length === 0) throw new Error("--commits needs a comma-separated list, e.g. --commits 15d8dcf,HEAD");
    return list.map((c) => git("rev-parse", "--short=7", c));
  }
  const points = Number(process.argv[3] ?? 8);
  const from = git("rev-parse", "--short=7", process.argv[4] ?? "15d8dcf");
  const to = git("rev-parse", "--short=7", process.argv[5] ?? "HEAD");
  const line = git("rev-list", "--first-parent", "--reverse", "--abbrev-commit", `${from}..${to}`)
    .split("\n")
    .filter((c) => c !== "");
  if (line.length === 0) return [from];
  const picked = new Set<string>([from]);
  for (let i = 1; i < points; i++) picked.add(line[Math.min(line.length - 1, Math.round((i * line.length) / (points - 1)) - 1)]!);
  picked.add(line.at(-1)!);
  return [...picked];
}

const work = mkdtempSync(join(tmpdir(), "zot-history-"));
const model = startScriptedModel();
try {
  const list = commits();
  const builds: { commit: string; subject: string; bin: string; sandbox: boolean }[] = [];
  for (const commit of list) {
    const tree = join(work, `tree-${commit}`);
    git("worktree", "add", "--detach", "-f", tree, commit);
    try {
      symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
      const r = Bun.spawnSync(["npm", "run", "--silent", "build"], { cwd: tree, stdout: "pipe", stderr: "pipe" });
      if (r.exitCode !== 0) throw new Error(`building ${commit} failed: ${r.stderr.toString().trim().slice(-400)}`);
      const bin = join(work, `zot-${commit}`);
      copyFileSync(join(tree, "dist", "zot"), bin);
      const help = Bun.spawnSync([bin, "--help"], { stdout: "pipe", stderr: "pipe" }).stdout.toString();
      builds.push({ commit, subject: git("log", "-1", "--format=%s", commit).slice(0, 70), bin, sandbox: help.includes("--sandbox") });
    } finally {
      git("worktree", "remove", "--force", tree);
    }
  }

  const guard = compileGuard(work);
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work };
  const off = (args: string[], sandbox: boolean) => (sandbox ? unsandboxed(args) : args);
  const scenarios = {
    version: (b: (typeof builds)[number]) => [b.bin, "--version"],
    echo: (b: (typeof builds)[number]) => off(printArgs(b.bin, model.base, "steps=2 tool=bash run it", guard), b.sandbox),
    loop50: (b: (typeof builds)[number]) => off(printArgs(b.bin, model.base, "steps=51 tool=bash loop", null), b.sandbox),
  };
  type Name = keyof typeof scenarios;
  const names = Object.keys(scenarios) as Name[];
  const results = builds.map(
    () =>
      Object.fromEntries(names.map((n) => [n, { ms: [] as number[], cpu: [] as number[], mib: [] as number[] }])) as Record<
        Name,
        { ms: number[]; cpu: number[]; mib: number[] }
      >,
  );
  // One round unmeasured: each build's state directory (the model list's cache) is written by its first run.
  for (let run = -1; run < RUNS; run++)
    for (const [i, b] of builds.entries())
      for (const n of names) {
        const s = await sample(scenarios[n](b), buildEnv(env, work, b.commit), work);
        if (run < 0) continue;
        results[i]![n].ms.push(s.ms);
        results[i]![n].cpu.push(s.cpuMs);
        results[i]![n].mib.push(s.mib);
      }

  console.log(`machine: ${machine()}; ${RUNS} interleaved runs; medians (wall time includes /usr/bin/time); ${cpuMethod()}`);
  console.log("echo and loop50 with --sandbox off on builds that have one; Δ: the change from the row above");
  for (const n of names) {
    console.log(`\n${n}: wall ms, CPU ms, peak MiB`);
    let prev: number[] | null = null;
    for (const [i, b] of builds.entries()) {
      const r = results[i]![n];
      const row = [median(r.ms), median(r.cpu), median(r.mib)];
      const delta = prev ? `Δ ${row.map((v, k) => `${v - prev![k]! >= 0 ? "+" : ""}${(v - prev![k]!).toFixed(1)}`).join(" / ")}` : "";
      console.log(
        `  ${b.commit}  ${row[0]!.toFixed(1).padStart(6)} ${row[1]!.toFixed(1).padStart(6)} ${row[2]!.toFixed(1).padStart(5)}  ${delta.padEnd(22)}  ${b.subject}`,
      );
      prev = row;
    }
  }
} finally {
  model.stop();
  git("worktree", "prune");
  rmSync(work, { recursive: true, force: true });
}
