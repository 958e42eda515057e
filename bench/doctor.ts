// `zot ext doctor` on the example extensions (issue 2 §10: the 4 examples in under 300 ms, excluding
// the extensions' own start-up time, which is reported separately).
//
// Each run spawns the built binary, `zot ext doctor --json -e <example>…`, and times it from spawn
// to exit. The doctor's JSON gives every extension's own start-up (`startup_ms`: spawn → ready, as
// the host saw it). The extensions start in parallel, so doctor's own share of the wall time is the
// wall time minus the slowest extension's start-up: zot's process start, discovery and manifest
// checks, the handshakes, shutting the extensions down, and printing the report.
//
//   bun bench/doctor.ts [runs] [binary]     (default 15 runs, dist/zot)
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freshBinary } from "../scripts/build-freshness.ts";

const ROOT = resolve(import.meta.dir, "..");
const RUNS = Number(process.argv[2] ?? 15);
const EXAMPLES = join(ROOT, "examples", "extensions");
/** The four examples of issue 2 (one per way of writing an extension): TS SDK on Bun, raw Python, plain Node, Python SDK. */
const FOUR = ["hello", "hello-py", "clock", "guard"];
const ALL = ["hello", "hello-py", "clock", "guard", "weather", "todo", "scratchpad", "tool-loader", "redact", "theme-solarized"];

const dir = mkdtempSync(join(tmpdir(), "zot-bench-doctor-"));
const ZOT = join(dir, "zot");
copyFileSync(resolve(process.argv[3] ?? freshBinary(ROOT, join(ROOT, "dist", "zot"))), ZOT);
const env = { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}` };

type Run = { wall: number; slowest: number; startups: Record<string, number> };

async function doctor(names: string[]): Promise<Run> {
  const home = mkdtempSync(join(dir, "home-"));
  const t0 = performance.now();
  const proc = Bun.spawn([ZOT, "ext", "doctor", "--json", ...names.flatMap((n) => ["-e", join(EXAMPLES, n)])], {
    cwd: dir,
    env: { ...env, ZOT_HOME: home },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const wall = performance.now() - t0;
  rmSync(home, { recursive: true, force: true });
  const report = JSON.parse(out) as { ok: boolean; extensions: { name: string; status: string; startup_ms: number | null }[] };
  if (code !== 0 || !report.ok) throw new Error(`doctor failed (exit ${code}): ${out}${err}`);
  const startups: Record<string, number> = {};
  for (const e of report.extensions) if (e.startup_ms !== null) startups[e.name] = e.startup_ms;
  return { wall, slowest: Math.max(0, ...Object.values(startups)), startups };
}

async function timeOf(cmd: string[]): Promise<number> {
  const t0 = performance.now();
  const proc = Bun.spawn(cmd, { env, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  await proc.exited;
  return performance.now() - t0;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const f = (n: number) => n.toFixed(1);

try {
  const sets: Record<string, string[]> = { four: FOUR, all: ALL, none: [], ...Object.fromEntries(FOUR.map((n) => [n, [n]])) };
  const runs: Record<string, Run[]> = Object.fromEntries(Object.keys(sets).map((k) => [k, []]));
  const base: number[] = [];
  for (const names of Object.values(sets)) await doctor(names);
  for (let i = 0; i < RUNS; i++) {
    base.push(await timeOf([process.execPath, "-e", "0"]));
    for (const [k, names] of Object.entries(sets)) runs[k]!.push(await doctor(names));
  }
  const b = median(base);
  console.log(`machine: ${cpus().length} CPUs, ${cpus()[0]?.model ?? "unknown"}; bun ${Bun.version}; ${RUNS} interleaved runs; medians`);
  console.log(`bun -e 0 (spawn to exit):                 ${f(b)} ms`);
  for (const [k, label] of [
    ["none", "doctor, no extensions"],
    ["four", `doctor, 4 examples (${FOUR.join(", ")})`],
    ["all", `doctor, all ${ALL.length} examples`],
  ] as const) {
    const rs = runs[k]!;
    const wall = median(rs.map((r) => r.wall));
    const slowest = median(rs.map((r) => r.slowest));
    const own = median(rs.map((r) => r.wall - r.slowest));
    console.log(
      `${label}: wall ${f(wall)} ms (${f(wall / b)}× bun -e 0); slowest extension start-up ${f(slowest)} ms; doctor's own share ${f(own)} ms (${f(own / b)}× bun -e 0)${k === "four" ? "   target < 300 ms" : ""}`,
    );
    if (k !== "none") {
      const names = k === "four" ? FOUR : ALL;
      const per = names
        .filter((n) => rs.some((r) => n in r.startups))
        .map((n) => `${n} ${f(median(rs.filter((r) => n in r.startups).map((r) => r.startups[n]!)))}`);
      console.log(`  start-up per extension (spawn → ready, all starting at once on ${cpus().length} cores), ms: ${per.join(", ")}`);
    }
  }
  const alone = FOUR.map((n) => `${n} ${f(median(runs[n]!.map((r) => r.startups[n] ?? NaN)))} (doctor wall ${f(median(runs[n]!.map((r) => r.wall)))})`);
  console.log(`  start-up of each of the 4 alone (one extension per doctor run), ms: ${alone.join(", ")}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
