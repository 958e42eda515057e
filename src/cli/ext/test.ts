// `zot ext test <dir> <script.jsonl> [--json]`: runs the conformance and scenario harness and
// prints each step with its timing; exit 1 when any step failed, so it fits in an author's CI.
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { ZOT_VERSION } from "../../version.ts";
import { redactSecrets } from "../../redact.ts";
import { parseScript } from "../../ext/harness-script.ts";
import { storedSecretValues } from "../../ext/install/settings.ts";
import { runHarness, type HarnessReport, type StepStatus } from "../../ext/harness.ts";
import type { Ctx } from "../kit/context.ts";
import { fail } from "../kit/context.ts";

export async function test(ctx: Ctx, dirArg: string, scriptArg: string, json: boolean): Promise<number> {
  const dir = resolve(ctx.processCwd, dirArg);
  try {
    if (!statSync(dir).isDirectory()) return fail(ctx, `${dir} is not a directory; pass the extension's directory.`);
  } catch {
    return fail(ctx, `${dir} does not exist; pass the extension's directory.`);
  }
  const scriptPath = resolve(ctx.processCwd, scriptArg);
  let text: string;
  try {
    text = readFileSync(scriptPath, "utf8");
  } catch {
    return fail(ctx, `cannot read the script ${scriptPath}; pass a JSONL file (see zot ext --help).`);
  }
  const script = parseScript(text, scriptPath);
  if (!script.ok) return fail(ctx, script.error);

  // The extension's settings secrets are masked in its log and in the report, as in every other mode.
  const secrets = storedSecretValues(ctx.home);
  const mask = (text: string) => redactSecrets(text, secrets);
  const report = await runHarness({ dir, steps: script.steps, home: ctx.home, cwd: ctx.cwd, env: ctx.env, zotVersion: ZOT_VERSION, mask });
  ctx.out.write(mask(json ? JSON.stringify(report, null, 2) + "\n" : human(report)));
  return report.ok ? 0 : 1;
}

const MARK: Record<StepStatus, string> = { pass: "ok  ", warn: "warn", fail: "FAIL", skip: "skip" };

function human(r: HarnessReport): string {
  const out = [`zot ext test: ${r.extension} (${r.dir})`];
  r.steps.forEach((s, i) => {
    const where = s.line !== null ? ` [line ${s.line}]` : "";
    const ms = s.ms !== null ? `  ${s.ms} ms` : "";
    out.push(`  ${MARK[s.status]}  ${String(i + 1).padStart(2)}. ${s.name}${where}${ms}`);
    if (s.detail) out.push(`              ${s.detail}`);
  });
  const reg = r.registrations;
  const parts = [
    reg.commands.length ? `commands ${reg.commands.map((c) => `/${c}`).join(", ")}` : "",
    reg.tools.length ? `tools ${reg.tools.map((t) => (t.deferred ? `${t.name} (deferred)` : t.name)).join(", ")}` : "",
    reg.events.length ? `events ${reg.events.join(", ")}` : "",
    reg.intercept.length ? `intercept ${reg.intercept.join(", ")}` : "",
  ].filter(Boolean);
  if (parts.length) out.push(`registered: ${parts.join("; ")}`);
  const failed = r.steps.filter((s) => s.status === "fail").length;
  const warned = r.steps.filter((s) => s.status === "warn").length;
  out.push(
    failed
      ? `FAILED: ${failed} of ${r.steps.length} steps failed${warned ? `, ${warned} warning(s)` : ""}; log: ${r.log}`
      : `passed: ${r.steps.length} steps${warned ? `, ${warned} warning(s)` : ""}`,
  );
  return out.join("\n") + "\n";
}
