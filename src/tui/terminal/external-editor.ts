// ctrl+g: the prompt in the user's own editor ($VISUAL, else $EDITOR, else vi). The draft goes to
// a private temp file, the editor gets the terminal until it exits, and the file's text comes back.
import type { Result } from "../../result.ts";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Env } from "../../platform/env.ts";

export function editorCommand(env: Env): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";
}

/**
 * Runs the editor on `text` (inside `lend`, which hands over the terminal) and returns the edited
 * text, or an error sentence. The command is run by `sh` so `EDITOR="code --wait"` works.
 */
export function editExternally(text: string, env: Env, lend: <T>(fn: () => T) => T): Result<{ text: string }> {
  const dir = mkdtempSync(join(tmpdir(), "zot-prompt-"));
  const file = join(dir, "prompt.md");
  const command = editorCommand(env);
  try {
    writeFileSync(file, text, { mode: 0o600 });
    const r = lend(() =>
      Bun.spawnSync(["sh", "-c", `${command} "$1"`, "sh", file], { stdio: ["inherit", "inherit", "inherit"], env: env as Record<string, string> }),
    );
    if (r.exitCode !== 0)
      return {
        ok: false,
        error: `The editor (${command}) exited with status ${r.exitCode ?? r.signalCode}; the prompt is unchanged. Set $VISUAL or $EDITOR to the editor you want.`,
      };
    return { ok: true, text: readFileSync(file, "utf8").replace(/\n$/, "") };
  } catch (err) {
    return { ok: false, error: `Could not edit the prompt in ${command} (${err instanceof Error ? err.message : String(err)}); the prompt is unchanged.` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
