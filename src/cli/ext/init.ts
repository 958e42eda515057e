// `zot ext init <name> [--lang L] [--sdk PATH]`: writes a working extension into <cwd>/<name>/. Files
// are written into a hidden stage first and renamed into place, so an interrupted init leaves no half
// directory.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isManifestName } from "../../ext/name-rules.ts";
import { shellQuote } from "../../shell-quote.ts";
import type { Ctx } from "../kit/context.ts";
import { fail } from "../kit/context.ts";
import { LANGUAGES, type Language, mockPrompt, scaffold, SDK_LANGUAGES, type SdkLanguage, type SdkLocation } from "./scaffolds.ts";

/**
 * `sdk` is the `--sdk` value: a zot checkout, or the language's SDK directory (`sdk/typescript`,
 * `sdk/python`), relative to the process's working directory. Without it the scaffold speaks the
 * raw protocol.
 */
export async function init(ctx: Ctx, name: string, lang: string, sdk?: string): Promise<number> {
  if (!isManifestName(name))
    return fail(ctx, `"${name}" is not a valid extension name; use letters, digits, ".", "_" or "-" (starting with a letter or digit, up to 64).`);
  if (!(LANGUAGES as readonly string[]).includes(lang)) return fail(ctx, `unknown language "${lang}"; pick one of ${LANGUAGES.join(", ")}.`);
  let location: SdkLocation | undefined;
  if (sdk !== undefined) {
    if (!(SDK_LANGUAGES as readonly string[]).includes(lang))
      return fail(ctx, `--sdk works with --lang ${SDK_LANGUAGES.join(" or ")}; the ${lang} scaffold speaks the raw protocol, so leave --sdk out.`);
    const found = findSdk(lang as SdkLanguage, resolve(ctx.processCwd, sdk));
    if (typeof found === "string") return fail(ctx, `--sdk ${sdk}: ${found}`);
    location = found;
  }
  const target = join(ctx.cwd, name);
  if (existsSync(target)) return fail(ctx, `${target} already exists; pick another name or remove it first.`);

  const { files, build } = scaffold(name, lang as Language, location);
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
    ...(build ? [`cd ${shellQuote(target)} && ${build}`] : []),
    `zot ext doctor -e ${shellQuote(target)}`,
    `zot ext test ${shellQuote(target)} ${shellQuote(join(target, "test.jsonl"))}`,
    `zot -p --provider mock --permission-mode yolo -e ${shellQuote(target)} ${shellQuote(mockPrompt(name))}`,
    `zot ext install ${shellQuote(target)}`,
  ];
  const kind = location ? `${lang}, ${lang === "ts" ? "TypeScript" : "Python"} SDK` : lang;
  ctx.out.write(`created ${name} (${kind}) in ${target}\nnext (see ${join(target, "README.md")}):\n${steps.map((s) => `  ${s}\n`).join("")}`);
  return 0;
}

/** The SDK file or directory the scaffold should import, or why `path` holds none. */
function findSdk(lang: SdkLanguage, path: string): SdkLocation | string {
  const [file, sub, what, want] =
    lang === "ts"
      ? ["src/index.ts", "sdk/typescript", "TypeScript SDK", "a zot checkout or its sdk/typescript directory"]
      : ["zot_ext.py", "sdk/python", "Python SDK", "a zot checkout or its sdk/python directory"];
  for (const dir of [path, join(path, sub)]) {
    const candidate = join(dir, file);
    if (!isFile(candidate)) continue;
    // The real path, so the scaffold keeps working when a symlink to the checkout moves.
    const real = realpathSync(candidate);
    return lang === "ts" ? { lang, entry: real } : { lang, dir: dirname(real), module: readFileSync(real, "utf8") };
  }
  return `no ${what} there (looked for ${join(path, file)} and ${join(path, sub, file)}); pass ${want}.`;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
