// `zot ext enable|disable <name>`: rewrites only the manifest's top-level `enabled` value, keeping
// every other byte (order, indentation, comments-free JSON formatting) as the author wrote it. The
// lockfile follows zot's own edit, so `zot ext verify` does not take it for tampering.
import type { Result } from "../../result.ts";
import { readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { atomicWrite } from "../../platform/atomic-write.ts";
import { relockEdit } from "../../ext/install/lockfile.ts";
import { isObject } from "../../json.ts";
import type { Ctx } from "../kit/context.ts";
import { fail } from "../kit/context.ts";
import { findInstalled, notFound } from "./lookup.ts";

export async function toggle(ctx: Ctx, name: string, enabled: boolean): Promise<number> {
  const ext = await findInstalled(ctx, name);
  if (!ext) return fail(ctx, notFound(ctx, name));
  const verb = enabled ? "enable" : "disable";
  let path: string;
  let text: string;
  try {
    path = realpathSync(ext.manifestPath);
    text = readFileSync(path, "utf8");
  } catch {
    return fail(ctx, `cannot ${verb} ${ext.name}: ${ext.manifestPath} cannot be read; reinstall the extension.`);
  }
  const edited = setEnabled(text, enabled);
  if (!edited.ok) return fail(ctx, `cannot ${verb} ${ext.name}: ${ext.manifestPath} ${edited.error}; fix the manifest first.`);
  if (edited.text === text) {
    ctx.out.write(`${ext.name} is already ${enabled ? "enabled" : "disabled"} (${ext.manifestPath})\n`);
    return 0;
  }
  let mode: number;
  try {
    mode = statSync(path).mode;
    atomicWrite(path, edited.text);
  } catch (e) {
    return fail(
      ctx,
      `cannot ${verb} ${ext.name}: writing ${ext.manifestPath} failed (${(e as NodeJS.ErrnoException).code ?? String(e)}); check its permissions.`,
    );
  }
  const relocked = relockEdit(dirname(ext.dir), basename(ext.dir), basename(ext.manifestPath), Buffer.from(text), Buffer.from(edited.text), mode);
  if (!relocked.ok) ctx.err.write(`zot: ${verb}d ${ext.name}, but ${relocked.error}; zot ext verify will report its manifest as changed.\n`);
  ctx.out.write(`${enabled ? "enabled" : "disabled"} ${ext.name} (${ext.manifestPath})\n`);
  return 0;
}

type Member = { keyStart: number; key: string; colon: string; valueStart: number; valueEnd: number };

/**
 * Returns `text` with the top-level `"enabled"` value set: replaced in place where it exists,
 * otherwise appended as the last member in the file's own style. Unchanged text means no change
 * was needed (the value already is exactly `true`/`false`).
 */
export function setEnabled(text: string, enabled: boolean): Result<{ text: string }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: "is not valid JSON" };
  }
  if (!isObject(parsed)) return { ok: false, error: "is not a JSON object" };
  const value = enabled ? "true" : "false";
  const { open, close, members } = scanObject(text);

  const hits = members.filter((m) => m.key === "enabled");
  if (hits.length > 0) {
    let out = text;
    for (const m of [...hits].reverse()) out = out.slice(0, m.valueStart) + value + out.slice(m.valueEnd);
    return { ok: true, text: out };
  }
  const first = members[0];
  const last = members.at(-1);
  if (!first || !last) return { ok: true, text: text.slice(0, open + 1) + `"enabled": ${value}` + text.slice(close) };
  const lead = text.slice(open + 1, first.keyStart);
  return { ok: true, text: text.slice(0, last.valueEnd) + `,${lead}"enabled"${first.colon}${value}` + text.slice(last.valueEnd) };
}

/** Top-level members of a JSON object already known to be valid. */
function scanObject(s: string): { open: number; close: number; members: Member[] } {
  const members: Member[] = [];
  const open = skipWs(s, 0);
  let i = skipWs(s, open + 1);
  while (s[i] !== "}") {
    const keyStart = i;
    const keyEnd = skipString(s, i);
    const colonAt = skipWs(s, keyEnd);
    const valueStart = skipWs(s, colonAt + 1);
    const valueEnd = skipValue(s, valueStart);
    members.push({ keyStart, key: JSON.parse(s.slice(keyStart, keyEnd)) as string, colon: s.slice(keyEnd, valueStart), valueStart, valueEnd });
    i = skipWs(s, valueEnd);
    if (s[i] === ",") i = skipWs(s, i + 1);
  }
  return { open, close: i, members };
}

function skipWs(s: string, i: number): number {
  while (i < s.length && (s[i] === " " || s[i] === "\t" || s[i] === "\n" || s[i] === "\r")) i++;
  return i;
}

function skipString(s: string, i: number): number {
  i++;
  while (i < s.length && s[i] !== '"') i += s[i] === "\\" ? 2 : 1;
  return i + 1;
}

function skipValue(s: string, i: number): number {
  if (s[i] === '"') return skipString(s, i);
  if (s[i] === "{" || s[i] === "[") {
    let depth = 0;
    while (i < s.length) {
      const c = s[i];
      if (c === '"') {
        i = skipString(s, i);
        continue;
      }
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  while (i < s.length && !",}] \t\r\n".includes(s.charAt(i))) i++;
  return i;
}
