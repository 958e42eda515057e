// What a big edit holds (issue 26 §1): the edit tool changes one line in the middle of a file of
// 10 and 100 MB (source-like lines of ~80 bytes), in a child process per run; its peak RSS above
// the RSS just before the call, as a multiple of the file's size (the file must be read, the new
// text built and written: ~2–3× is the floor of doing it in memory). Checkpoints, which copy the
// file too, are bench/checkpoints.ts's. Optionally a second source tree to compare (A/B).
// Then the whole process as a user runs it: `zot -p` in a workspace holding the file, the model
// (bench/scripted-model.ts) asking for the one edit, checkpoints on as by default; peak RSS (GNU
// time) as a multiple of the file — with ZOT_GO_BIN set (a Go zot built outside this repository), the Go zot
// doing the same beside it. The Go zot's edit takes time and memory quadratic in the file's size
// (1 MB: 5 s and 2.4 GiB, 2 MB: 16 s and 9.3 GiB; 10 MB would need ~230 GiB), so its rows are
// measured on smaller files: ZOT_EDIT_MB sets the sizes (default 10,100).
// Run: [ZOT_BIN=binary (default a fresh dist/zot)] [ZOT_GO_BIN=…] [ZOT_EDIT_MB=1,2] bun bench/edit-scale.ts [other-src-root]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freshBinary } from "../scripts/build-freshness.ts";
import { cpuMethod, goZotBinary, machine, median, sample } from "./harness.ts";
import { startScriptedModel } from "./scripted-model.ts";

const SIZES_MB = (process.env.ZOT_EDIT_MB ?? "10,100").split(",").map(Number);
const ROUNDS = 3;

function hwmKiB(): number {
  const line = readFileSync("/proc/self/status", "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmHWM"));
  return Number(line?.split(/\s+/)[1]);
}

if (process.argv[2] === "--child") {
  const [root, path] = [process.argv[3]!, process.argv[4]!];
  const { editTool } = (await import(join(root, "src/agent/tools/edit.ts"))) as typeof import("../src/agent/tools/edit.ts");
  Bun.gc(true);
  // VmHWM can't be reset, so the floor is the RSS right before the call (the process has done nothing big yet).
  const before = process.memoryUsage().rss / 1024;
  const out = await editTool.execute(
    { path, edits: [{ oldText: "NEEDLE-IN-THE-MIDDLE", newText: "NEEDLE-CHANGED" }] },
    { cwd: "/", signal: new AbortController().signal, progress: () => {}, home: "/" },
  );
  if (out.isError) throw new Error(JSON.stringify(out.content));
  process.stdout.write(String(hwmKiB() - before));
  process.exit(0);
}

/** A file of ~`mb` MB of source-like lines with the needle the edit changes in the middle. */
function bigFile(mb: number): string {
  const line = "export const value = computeSomething(alpha, beta, gamma); // a line of code\n";
  const half = line.repeat(Math.floor((mb * 1e6) / line.length / 2));
  return `${half}NEEDLE-IN-THE-MIDDLE\n${half}`;
}

const roots = [resolve(import.meta.dir, ".."), ...process.argv.slice(2).map((r) => resolve(r))];
const dir = mkdtempSync(join(tmpdir(), "zot-bench-edit-"));
try {
  console.log(`edit scale — ${machine()}; ${ROUNDS} runs each, medians; ${cpuMethod()}`);
  console.log("file MB | peak above start MiB | × file | source");
  for (const mb of SIZES_MB) {
    const path = join(dir, `big-${mb}.ts`);
    const text = bigFile(mb);
    for (const root of roots) {
      const peaks: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        writeFileSync(path, text);
        const p = Bun.spawnSync([process.execPath, import.meta.path, "--child", root, path], { stdout: "pipe", stderr: "pipe" });
        if (p.exitCode !== 0) throw new Error(p.stderr.toString());
        peaks.push(Number(p.stdout.toString()) / 1024);
      }
      const peak = median(peaks);
      console.log(`${String(mb).padStart(7)} | ${peak.toFixed(0).padStart(20)} | ${(peak / ((mb * 1e6) / 2 ** 20)).toFixed(1).padStart(6)} | ${root}`);
    }
  }
  const agents: [string, string][] = [["zot", resolve(process.env.ZOT_BIN ?? freshBinary(roots[0]!, join(roots[0]!, "dist", "zot")))]];
  const goBin = goZotBinary();
  if (goBin) agents.push(["Go", goBin]);
  const model = startScriptedModel();
  try {
    console.log("whole process, one edit through the model | file MB | peak RSS MiB | × file | wall s | CPU s");
    for (const mb of SIZES_MB) {
      const text = bigFile(mb);
      for (const [name, bin] of agents) {
        const peaks: number[] = [];
        const walls: number[] = [];
        const cpus: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          const work = mkdtempSync(join(dir, "work-"));
          writeFileSync(join(work, "big.txt"), text);
          const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, ZOT_HOME: join(work, ".zot-home") };
          const argv = [
            bin,
            "-p",
            "--provider",
            "anthropic",
            "--base-url",
            model.base,
            "--api-key",
            "sk-bench-key-0000",
            "--cwd",
            work,
            "steps=2 tool=edit change it",
          ];
          const s = await sample(argv, env, work);
          if (!readFileSync(join(work, "big.txt"), "utf8").includes("NEEDLE-CHANGED")) throw new Error(`${name} did not make the edit in ${work}`);
          peaks.push(s.mib);
          walls.push(s.ms / 1000);
          cpus.push(s.cpuMs / 1000);
          rmSync(work, { recursive: true, force: true });
        }
        const peak = median(peaks);
        console.log(
          `${name.padStart(42)} | ${String(mb).padStart(7)} | ${peak.toFixed(0).padStart(12)} | ${(peak / ((mb * 1e6) / 2 ** 20)).toFixed(1).padStart(6)} | ${median(walls).toFixed(2).padStart(6)} | ${median(cpus).toFixed(2).padStart(5)}`,
        );
      }
    }
  } finally {
    model.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
