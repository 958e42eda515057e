// Smoke tests of one release binary: `--version`, `ext doctor --json` on the clock example (a plain
// Node extension, so it runs on every CI runner) and one `-p` turn with the offline mock provider.
// A binary for another CPU runs under qemu-user-static when that and a sysroot for the target's C
// library are installed; otherwise the reason it was not run is reported.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Target } from "../../src/platform/targets.ts";
import { ROOT } from "../build-flags.ts";
import { hostTarget } from "../host-target.ts";

export type SmokeResult = { ran: true; problems: string[]; via: string } | { ran: false; why: string };

const QEMU_CPU = { x64: "x86_64", arm64: "aarch64" } as const;

/** How to run a binary for `target` on this machine: a command prefix, or why it cannot run. */
export function runnerFor(target: Target, env: Record<string, string | undefined> = process.env): { prefix: string[]; via: string } | { why: string } {
  const host = hostTarget();
  if (!host || host.os !== target.os) return { why: `a ${target.os} binary cannot run on ${process.platform}; its executable format was checked instead` };
  const cpu = QEMU_CPU[target.arch];
  const loader = target.musl ? `/lib/ld-musl-${cpu}.so.1` : null;
  if (host.arch === target.arch) {
    if (loader && !existsSync(loader)) return { why: `no musl loader at ${loader} (Debian: apt-get install musl)` };
    if (target.musl && !muslLibstdcxx("/")) return { why: MUSL_LIBSTDCXX_MISSING("/") };
    return { prefix: [], via: "natively" };
  }
  if (target.os !== "linux") return { why: `a ${target.arch} binary cannot run on this ${host.arch} machine` };
  const qemu = `/usr/bin/qemu-${cpu}-static`;
  if (!existsSync(qemu)) return { why: `${qemu} is not installed (Debian: apt-get install qemu-user-static)` };
  // The sysroot holding the target's dynamic loader and libraries; ZOT_QEMU_SYSROOT_<TARGET> overrides.
  const key = `ZOT_QEMU_SYSROOT_${target.name.toUpperCase().replaceAll("-", "_")}`;
  const sysroot = env[key] ?? (target.musl ? `/usr/${cpu}-linux-musl` : `/usr/${cpu}-linux-gnu`);
  const needed = join(sysroot, loader ?? (cpu === "aarch64" ? "/lib/ld-linux-aarch64.so.1" : "/lib64/ld-linux-x86-64.so.2"));
  if (!existsSync(needed)) {
    const hint = target.musl
      ? "an Alpine root for that CPU with libstdc++ installed; Debian has no musl libstdc++"
      : `Debian: apt-get install libc6-${target.arch === "arm64" ? "arm64" : "amd64"}-cross libstdc++6-${target.arch === "arm64" ? "arm64" : "amd64"}-cross`;
    return { why: `no ${target.musl ? "musl" : "glibc"} sysroot for qemu: ${needed} is missing (${hint}, or set ${key})` };
  }
  if (target.musl && !muslLibstdcxx(sysroot)) return { why: MUSL_LIBSTDCXX_MISSING(sysroot) };
  return { prefix: [qemu, "-L", sysroot], via: `under ${qemu} -L ${sysroot}` };
}

// Bun's musl runtime links libstdc++ dynamically; musl looks for it in its default library path.
const MUSL_LIB_DIRS = ["lib", "usr/lib", "usr/local/lib"];
function muslLibstdcxx(root: string): boolean {
  return MUSL_LIB_DIRS.some((d) => existsSync(join(root, d, "libstdc++.so.6")));
}
const MUSL_LIBSTDCXX_MISSING = (root: string): string =>
  `the musl build needs a musl libstdc++.so.6 in ${MUSL_LIB_DIRS.map((d) => join(root, d)).join(", ")} (Alpine: apk add libstdc++; Debian ships none)`;

async function run(argv: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(argv, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  // An emulated binary is slow but not this slow; a hang must not stall the release.
  const timer = setTimeout(() => proc.kill("SIGKILL"), 120_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

export async function smokeTest(file: string, target: Target, version: string): Promise<SmokeResult> {
  // The runs happen in a scratch directory, so a relative path would point nowhere.
  const binary = resolve(file);
  const runner = runnerFor(target);
  if ("why" in runner) return { ran: false, why: runner.why };
  const scratch = mkdtempSync(join(tmpdir(), "zot-smoke-"));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("ZOT") && !k.endsWith("_API_KEY")) env[k] = v;
  env.ZOT_HOME = join(scratch, "home");
  const problems: string[] = [];
  const zot = (...args: string[]) => run([...runner.prefix, binary, ...args], env, scratch);
  try {
    const v = await zot("--version");
    if (v.code !== 0 || !v.stdout.startsWith(`zot ${version} (`)) problems.push(`--version printed ${JSON.stringify(v.stdout + v.stderr)} (exit ${v.code})`);
    const d = await zot("ext", "doctor", "--json", "-e", join(ROOT, "examples", "extensions", "clock"));
    const ready = d.code === 0 && doctorReady(d.stdout, "clock");
    if (!ready)
      problems.push(`ext doctor --json on examples/extensions/clock did not report it ready (exit ${d.code}): ${(d.stderr || d.stdout).slice(0, 300)}`);
    const p = await zot("-p", "hello from the smoke test", "--provider", "mock", "--no-session");
    if (p.code !== 0 || p.stdout.trim() !== "mock: hello from the smoke test")
      problems.push(`-p with the mock provider printed ${JSON.stringify(p.stdout + p.stderr)} (exit ${p.code})`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { ran: true, problems, via: runner.via };
}

function doctorReady(stdout: string, name: string): boolean {
  try {
    const report = JSON.parse(stdout) as { ok?: unknown; extensions?: { name?: unknown; status?: unknown }[] };
    const ext = report.extensions?.find((e) => e.name === name);
    return report.ok === true && (ext?.status === "ready" || ext?.status === "auto_ready");
  } catch {
    return false;
  }
}
