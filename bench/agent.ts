// Agent runtime benchmarks (issue 3 §9), against the built binary dist/zot:
//   1. `zot -p` wall time, process start to exit, against a local scripted Anthropic-format server:
//      the model calls `bash` once, one tool_call interceptor extension is loaded (measured with an
//      interceptor in plain sh, which isolates zot's own cost, and with one in TypeScript on Bun,
//      whose ~10 ms runtime start-up is part of the wall time). Plus peak RSS.
//   2. A 50-step tool loop (the model calls `read` 50 times): host time per step beyond the
//      server's own time, from the difference to a 1-step run; plus the same loop in-process,
//      split into model client (HTTP + SSE parsing), tool execution, and the loop's own work.
//   3. `zot --version` wall time.
// Every figure is reported beside a plain `bun -e 0` process start measured in the same run (Bun
// 1.4 treats `bun -e ''` as no script at all and prints its usage without starting JavaScript).
//
//   bun bench/agent.ts [runs] [binary]   (default 30 runs per scenario, interleaved; dist/zot)
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { median, printArgs, sample as sampleRun, type Sample } from "./harness.ts";
import { startScriptedModel } from "./scripted-model.ts";
import { runLoop, type LoopContext } from "../src/agent/loop.ts";
import type { Message } from "../src/agent/messages.ts";
import { createProvider } from "../src/agent/providers/index.ts";
import { builtinTools } from "../src/agent/tools/index.ts";
import { Host } from "../src/ext/host.ts";
import { freshBinary } from "../scripts/build-freshness.ts";

const ROOT = resolve(import.meta.dir, "..");
const BUN = process.execPath;
const RUNS = Number(process.argv[2] ?? 30);
const LOOP_STEPS = 50;

const home = mkdtempSync(join(tmpdir(), "zot-bench-"));
const env: Record<string, string> = {
  PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
  HOME: process.env.HOME ?? home,
  ZOT_HOME: home,
  ZOT_TEST_GUARD: JSON.stringify({ intercept: ["tool_call"], block_command: "rm -rf" }),
};
writeFileSync(join(home, "small.txt"), "a small file\n");
// A private copy, so a rebuild of dist/zot during the run (a shared machine) can't break it.
const ZOT = join(home, "zot");
copyFileSync(resolve(process.argv[3] ?? freshBinary(ROOT, join(ROOT, "dist", "zot"))), ZOT);

const scripted = startScriptedModel();
const base = scripted.base;
const fixture = (ext: string | null) => (ext ? join(ROOT, "test", "fixtures", "agent", ext) : null);

const sample = (cmd: string[]) => sampleRun(cmd, env, home);

/** Time of `/usr/bin/time true`, subtracted so wall times are zot's own. */
async function wrapperMs(): Promise<number> {
  return (await sample(["/bin/true"])).ms;
}

const scenarios = {
  baseline: [BUN, "-e", "0"],
  version: [ZOT, "--version"],
  print: printArgs(ZOT, base, "steps=2 tool=bash run it", fixture("shguard")),
  printBun: printArgs(ZOT, base, "steps=2 tool=bash run it", fixture("guard")),
  printBare: printArgs(ZOT, base, "steps=2 tool=bash run it", fixture(null)),
  loop1: printArgs(ZOT, base, "steps=2 tool=read loop", fixture(null)),
  loop50: printArgs(ZOT, base, `steps=${LOOP_STEPS + 1} tool=read loop`, fixture(null)),
};
type Name = keyof typeof scenarios;
const results = Object.fromEntries(Object.keys(scenarios).map((k) => [k, [] as Sample[]])) as Record<Name, Sample[]>;
const loopServerNs: Record<"loop1" | "loop50", bigint[]> = { loop1: [], loop50: [] };
const wrapper: number[] = [];

// Warm the page cache and the server.
for (const name of Object.keys(scenarios) as Name[]) await sample(scenarios[name]);
for (let i = 0; i < RUNS; i++) {
  wrapper.push(await wrapperMs());
  for (const name of Object.keys(scenarios) as Name[]) {
    const before = scripted.serverNs();
    results[name].push(await sample(scenarios[name]));
    if (name === "loop1" || name === "loop50") loopServerNs[name].push(scripted.serverNs() - before);
  }
}
/** The loop in this process, timed from its own events: per step, model call / tool / the rest. */
async function inProcessLoop(): Promise<{ model: number; tool: number; loop: number }> {
  const host = new Host();
  await host.load({ extPaths: [], noExt: true, cwd: home, home, info: { zotVersion: "bench", provider: "anthropic", model: "m", cwd: home } });
  const history: Message[] = [{ role: "user", content: [{ type: "text", text: `steps=${LOOP_STEPS + 1} tool=read` }], ts: 0 }];
  let model = 0;
  let tool = 0;
  let mark = 0;
  const ctx: LoopContext = {
    provider: createProvider({ provider: "anthropic", apiKey: "sk-bench-key-0000", baseUrl: base }),
    model: "claude-sonnet-4-5",
    system: "bench",
    maxSteps: 100,
    cwd: home,
    home,
    builtins: builtinTools(),
    extensionTools: true,
    hooks: host,
    history: () => history,
    record: (m) => void history.push(m),
    emit: (e) => {
      const now = performance.now();
      if (e.type === "turn_start" || e.type === "tool_call") mark = now;
      else if (e.type === "usage") model += now - mark;
      else if (e.type === "tool_result") tool += now - mark;
    },
    addUsage: (u) => u,
    approve: async () => ({ ok: true }),
  };
  const before = scripted.serverNs();
  const t0 = performance.now();
  await runLoop(ctx, new AbortController().signal);
  const total = performance.now() - t0;
  const srv = Number(scripted.serverNs() - before) / 1e6;
  await host.shutdown();
  const steps = LOOP_STEPS + 1;
  return { model: (model - srv) / steps, tool: tool / LOOP_STEPS, loop: (total - model - tool) / steps };
}
const inProc: { model: number; tool: number; loop: number }[] = [];
for (let i = 0; i < Math.max(5, Math.ceil(RUNS / 3)); i++) inProc.push(await inProcessLoop());

scripted.stop();
rmSync(home, { recursive: true, force: true });

const w = median(wrapper);
const ms = (name: Name) => median(results[name].map((s) => s.ms)) - w;
const rss = (name: Name) => Math.max(...results[name].map((s) => s.mib));
const base0 = ms("baseline");
const srvMs = (name: "loop1" | "loop50") => median(loopServerNs[name].map((n) => Number(n) / 1e6));
// loop50 makes LOOP_STEPS tool calls, loop1 one: the difference is LOOP_STEPS - 1 extra steps.
const perStep = (ms("loop50") - srvMs("loop50") - (ms("loop1") - srvMs("loop1"))) / (LOOP_STEPS - 1);

const cpu = cpus()[0]?.model ?? "unknown";
const f = (n: number) => n.toFixed(1);
console.log(`machine: ${cpus().length} CPUs, ${cpu}; bun ${Bun.version}; ${RUNS} interleaved runs per scenario; medians`);
console.log(`/usr/bin/time wrapper overhead (subtracted): ${f(w)} ms`);
console.log(`bun -e 0 start:                          ${f(base0)} ms   peak RSS ${f(rss("baseline"))} MiB`);
console.log(
  `zot --version:                           ${f(ms("version"))} ms   (${f(ms("version") / base0)}× bun -e 0)   peak RSS ${f(rss("version"))} MiB   target < 10 ms`,
);
console.log(
  `zot -p, 1 bash call, sh interceptor:     ${f(ms("print"))} ms   (${f(ms("print") / base0)}× bun -e 0)   peak RSS ${f(rss("print"))} MiB   target < 25 ms, < 40 MiB`,
);
console.log(`zot -p, 1 bash call, Bun interceptor:    ${f(ms("printBun"))} ms   (${f(ms("printBun") / base0)}× bun -e 0)   peak RSS ${f(rss("printBun"))} MiB`);
console.log(
  `zot -p, 1 bash call, no extension:       ${f(ms("printBare"))} ms   (${f(ms("printBare") / base0)}× bun -e 0)   peak RSS ${f(rss("printBare"))} MiB`,
);
console.log(`zot -p, 1 read call, no extension:       ${f(ms("loop1"))} ms`);
console.log(`zot -p, ${LOOP_STEPS} read calls, no extension:     ${f(ms("loop50"))} ms   server time ${f(srvMs("loop50"))} ms`);
console.log(`host time per extra step:                ${perStep.toFixed(2)} ms   (${f(perStep / base0)}× bun -e 0)   target < 1 ms`);
const part = (k: "model" | "tool" | "loop") => median(inProc.map((r) => r[k])).toFixed(3);
console.log(`in-process, per step: model client ${part("model")} ms (beyond server time), read tool ${part("tool")} ms, loop itself ${part("loop")} ms`);
