// How the session commands scale with the number of sessions (issue 26 §1): `zot -c -p`, `zot -r`
// and `zot --session PATH -p` beside 0, 20 and 60 older transcripts of 1 000 messages (~5 MB
// each). `-c` and `-r` should cost in proportion to the number of sessions, not their bytes, and
// `-c` about what `--session PATH` costs. With ZOT_GO_BIN set (a Go zot built outside this repository), the Go
// zot's `-c -p` and `--session PATH -p` run in the same rounds on the same files (the Go zot reads
// zot's transcripts), against the scripted model as it has no offline provider.
// Run: [ZOT_GO_BIN=…] bun bench/sessions-scale.ts [dist/zot] [rounds]
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { sessionDir } from "../src/platform/home.ts";
import { goZotBinary, machine, median, sample } from "./harness.ts";
import { startScriptedModel } from "./scripted-model.ts";

const zot = resolve(process.argv[2] ?? "dist/zot");
const rounds = Number(process.argv[3] ?? 5);
const goBin = goZotBinary();
const model = goBin ? startScriptedModel() : null;
const goModel = model ? ["--provider", "anthropic", "--base-url", model.base, "--api-key", "sk-bench-key-0000"] : [];

/** A transcript of `messages` rows of ~4.9 KB, as a long coding session leaves. */
function transcript(dir: string, n: number, messages: number): string {
  const id = n.toString(16).padStart(8, "0");
  const path = join(dir, `202601${String(1 + (n % 28)).padStart(2, "0")}-120000-${id}.jsonl`);
  const rows = [
    JSON.stringify({
      type: "meta",
      meta: { id: `${id}-0000-4000-8000-000000000000`, cwd: "/p", provider: "mock", model: "mock", started: "2026-01-01T12:00:00.000Z", version: "0.2.0" },
    }),
  ];
  const body = "x".repeat(4800);
  for (let i = 0; i < messages; i++) {
    rows.push(JSON.stringify({ type: "message", ts: i, message: { role: i % 2 ? "assistant" : "user", content: [{ type: "text", text: `${i} ${body}` }] } }));
  }
  writeFileSync(path, rows.join("\n") + "\n");
  const old = new Date(Date.UTC(2026, 0, 1) + n * 1000);
  utimesSync(path, old, old);
  return path;
}

console.log(`sessions scale — ${machine()}; ${rounds} rounds, medians`);
console.log(
  `older sessions | -c -p ms | MiB | -r ms | MiB | --session -p ms | MiB | -c / --session${goBin ? " | Go -c -p ms | MiB | Go --session -p ms | MiB | -c ms vs Go" : ""}`,
);
for (const older of [0, 20, 60]) {
  const root = mkdtempSync(join(tmpdir(), "zot-bench-sessions-"));
  const home = join(root, "home");
  const cwd = join(root, "project");
  mkdirSync(cwd, { recursive: true });
  const dir = sessionDir(home, cwd);
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < older; i++) transcript(dir, i + 1, 1000);
  const current = transcript(dir, 0, 10);
  const now = new Date();
  utimesSync(current, now, now);
  const env = { ...process.env, ZOT_HOME: home, HOME: root } as Record<string, string>;
  const runs = { c: [] as number[], cm: [] as number[], r: [] as number[], rm: [] as number[], s: [] as number[], sm: [] as number[] };
  const go = { c: [] as number[], cm: [] as number[], s: [] as number[], sm: [] as number[] };
  // One listing first, as a user who has run zot before has: the index is there.
  await sample([zot, "-r", "--cwd", cwd], env, root);
  for (let i = 0; i < rounds; i++) {
    const c = await sample([zot, "-c", "-p", "hi", "--provider", "mock", "--cwd", cwd], env, root);
    const r = await sample([zot, "-r", "--cwd", cwd], env, root);
    const s = await sample([zot, "--session", current, "-p", "hi", "--provider", "mock", "--cwd", cwd], env, root);
    runs.c.push(c.ms);
    runs.cm.push(c.mib);
    runs.r.push(r.ms);
    runs.rm.push(r.mib);
    runs.s.push(s.ms);
    runs.sm.push(s.mib);
    if (goBin) {
      const gc = await sample([goBin, "-c", "-p", "hi", ...goModel, "--cwd", cwd], env, root);
      const gs = await sample([goBin, "--session", current, "-p", "hi", ...goModel, "--cwd", cwd], env, root);
      go.c.push(gc.ms);
      go.cm.push(gc.mib);
      go.s.push(gs.ms);
      go.sm.push(gs.mib);
    }
  }
  const m = (xs: number[]) => median(xs).toFixed(0);
  console.log(
    `${String(older).padStart(14)} | ${m(runs.c).padStart(8)} | ${m(runs.cm).padStart(3)} | ${m(runs.r).padStart(5)} | ${m(runs.rm).padStart(3)} | ${m(runs.s).padStart(15)} | ${m(runs.sm).padStart(3)} | ${(median(runs.c) / median(runs.s)).toFixed(2)}×${goBin ? ` | ${m(go.c).padStart(11)} | ${m(go.cm).padStart(3)} | ${m(go.s).padStart(18)} | ${m(go.sm).padStart(3)} | ${(median(runs.c) / median(go.c)).toFixed(2)}×` : ""}`,
  );
  rmSync(root, { recursive: true, force: true });
}
model?.stop();
