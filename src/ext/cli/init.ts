// `zot ext init <name> [--lang L]`: writes a working extension into <cwd>/<name>/. Files are written
// into a hidden stage first and renamed into place, so an interrupted init leaves no half directory.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { MANIFEST_NAME_PATTERN } from "../protocol.ts";
import type { Ctx } from "./context.ts";
import { fail } from "./context.ts";
import { LANGUAGES, type Language, scaffold } from "./scaffolds.ts";

export async function init(ctx: Ctx, name: string, lang: string): Promise<number> {
  if (!MANIFEST_NAME_PATTERN.test(name))
    return fail(ctx, `"${name}" is not a valid extension name; use letters, digits, ".", "_" or "-" (starting with a letter or digit, up to 64).`);
  if (!(LANGUAGES as readonly string[]).includes(lang)) return fail(ctx, `unknown language "${lang}"; pick one of ${LANGUAGES.join(", ")}.`);
  const target = join(ctx.cwd, name);
  if (existsSync(target)) return fail(ctx, `${target} already exists; pick another name or remove it first.`);

  const { files, build } = scaffold(name, lang as Language);
  let stage: string;
  try {
    stage = mkdtempSync(join(ctx.cwd, `.zot-init-`));
  } catch (e) {
    return fail(ctx, `cannot write in ${ctx.cwd} (${(e as NodeJS.ErrnoException).code ?? String(e)}); check its permissions.`);
  }
  try {
    for (const f of files) {
      const path = join(stage, f.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, f.content);
      if (f.mode !== undefined) chmodSync(path, f.mode);
    }
    // mkdtemp makes the stage private (0700); the extension directory itself is an ordinary one.
    chmodSync(stage, 0o755);
    renameSync(stage, target);
  } catch (e) {
    rmSync(stage, { recursive: true, force: true });
    return fail(ctx, `creating ${target} failed (${(e as NodeJS.ErrnoException).code ?? String(e)}); nothing was written.`);
  }
  const steps = [
    ...(build ? [`cd ${target} && ${build}`] : []),
    `zot ext doctor -e ${target}`,
    `zot ext test ${target} ${join(target, "test.jsonl")}`,
    `zot ext install ${target}`,
  ];
  ctx.out.write(`created ${name} (${lang}) in ${target}\nnext:\n${steps.map((s) => `  ${s}\n`).join("")}`);
  return 0;
}
