// The agent sandbox's cost per `bash` call (issue 21: a small fraction of a call).
//
// Two measures, on the built binary:
// - per call, end to end: `zot --json` running a mock script of N `bash` calls of `true`, with
//   `--sandbox off` and with the default `workspace-write`, interleaved; (on − off) / N is what the
//   sandbox adds to each call (the launcher: one more start of the zot binary, the namespaces,
//   Landlock), next to what one call costs in all;
// - the launcher alone: spawning `/bin/sh -c true` straight and through `zot __sandbox --confine`.
//
//   bun bench/sandbox.ts [rounds] [calls] [binary]     (default 9 rounds of 20 calls, dist/zot)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freshBinary } from "../scripts/build-freshness.ts";
import { encodeConfinement, CONFINE_ARG } from "../src/platform/confine.ts";
import { confinement } from "../src/agent/sandbox/linux.ts";
import { sandboxPolicy } from "../src/agent/sandbox/policy.ts";

const ROOT = resolve(import.meta.dir, "..");
const ROUNDS = Number(process.argv[2] ?? 9);
const CALLS = Number(process.argv[3] ?? 20);
const ZOT = resolve(process.argv[4] ?? freshBinary(ROOT, join(ROOT, "dist", "zot")));

const dir = mkdtempSync(join(tmpdir(), "zot-bench-sandbox-"));
const ws = join(dir, "project");
const home = join(dir, "zot-home");
mkdirSync(ws);
mkdirSync(home);
const script = join(dir, "script.jsonl");
writeFileSync(
  script,
  [
    ...Array.from({ length: CALLS }, () => JSON.stringify({ tool_calls: [{ name: "bash", args: { command: "true" } }] })),
    JSON.stringify({ text: "done" }),
  ].join("\n") + "\n",
);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

async function agentRun(mode: string): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn([ZOT, "--json", "--no-session", "--sandbox", mode, "--mock-script", script, "go"], {
    cwd: ws,
    env: { ...process.env, ZOT_HOME: home },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, out] = await Promise.all([p.exited, new Response(p.stdout).text()]);
  if (code !== 0 || !out.includes('"stop":"end_turn"')) throw new Error(`zot --sandbox ${mode} failed (exit ${code})`);
  return performance.now() - t0;
}

function spawnTime(argv: string[]): number {
  const t0 = performance.now();
  const r = Bun.spawnSync(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${argv.slice(0, 3).join(" ")} failed: ${r.stdout}`);
  return performance.now() - t0;
}

try {
  const off: number[] = [];
  const on: number[] = [];
  await agentRun("off");
  for (let i = 0; i < ROUNDS; i++) {
    off.push(await agentRun("off"));
    on.push(await agentRun("workspace-write"));
  }
  const policy = sandboxPolicy(
    { mode: "workspace-write", network: false, writable: [], hidden: [] },
    { cwd: ws, zotHome: home, userHome: process.env.HOME ?? "/root" },
  );
  const spec = encodeConfinement(confinement(policy, false));
  const straight: number[] = [];
  const confined: number[] = [];
  const launcherOnly: number[] = [];
  const netOnly = encodeConfinement(confinement({ ...policy, hidden: [], reveal: [], network: true }, false));
  for (let i = 0; i < ROUNDS * 3; i++) {
    straight.push(spawnTime(["/bin/sh", "-c", "true"]));
    confined.push(spawnTime([ZOT, "__sandbox", CONFINE_ARG, spec, "/bin/sh", "-c", "true"]));
    launcherOnly.push(spawnTime([ZOT, "__sandbox", CONFINE_ARG, netOnly, "/bin/sh", "-c", "true"]));
  }
  const perCallOff = median(off) / CALLS;
  const added = (median(on) - median(off)) / CALLS;
  console.log(
    `${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}) · Bun ${Bun.version} · load ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`,
  );
  console.log(
    `zot --json, ${CALLS} bash calls of \`true\`, medians of ${ROUNDS}: --sandbox off ${median(off).toFixed(0)} ms, workspace-write ${median(on).toFixed(0)} ms`,
  );
  console.log(`  per call: ${perCallOff.toFixed(1)} ms unconfined (model step + tool call), +${added.toFixed(1)} ms for the sandbox`);
  console.log(
    `spawn, medians of ${ROUNDS * 3}: /bin/sh -c true ${median(straight).toFixed(1)} ms; through the launcher ${median(confined).toFixed(1)} ms (Landlock only, no namespaces: ${median(launcherOnly).toFixed(1)} ms)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
