// Small pieces every file tool needs: path resolution against the session cwd, argument checks,
// refusals of what is not a regular file, and results.
import { realpathSync, statSync, type Stats } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { fileKind } from "../../platform/atomic-write.ts";
import type { JsonObject } from "../../json.ts";
import type { ToolOutput } from "../tool.ts";

export function textResult(text: string, isError = false): ToolOutput {
  return { content: [{ type: "text", text }], isError };
}

/** `~` and `~/x` expand to the user's home; relative paths resolve against the session cwd. */
export function resolvePath(cwd: string, path: string): string {
  let p = path;
  // node:os is loaded only for a `~` path (loading it costs start-up memory).
  if (p === "~") p = process.getBuiltinModule("node:os").homedir();
  else if (p.startsWith("~/")) p = join(process.getBuiltinModule("node:os").homedir(), p.slice(2));
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

export function stringArg(args: JsonObject, key: string): string | undefined {
  const v = args[key];
  return typeof v === "string" ? v : undefined;
}

export function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}

/**
 * Why `abs` can't be written or edited as a file, or undefined when it is a regular file or does
 * not exist yet. Symlinks are followed: a link to a device is refused, a link to a file is fine.
 */
export function refuseNonRegular(abs: string, tool: string): string | undefined {
  let st: Stats;
  try {
    st = statSync(abs);
  } catch {
    return undefined;
  }
  if (st.isFile()) return undefined;
  let real = abs;
  try {
    real = realpathSync(abs);
  } catch {
    // A link loop or a vanished entry: the path itself is named.
  }
  const via = real === abs ? "" : ` (it resolves to ${real})`;
  return `Cannot ${tool} ${abs}${via}: it is ${fileKind(st)}, and ${tool} only changes regular files.`;
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n : n + 1;
}
