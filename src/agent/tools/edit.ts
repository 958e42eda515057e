// The `edit` tool: exact, unique text replacements, applied together or not at all. Matching runs
// on LF-normalised text without the BOM, and the file is written back with its own BOM and line
// endings, so editing a CRLF file doesn't turn it into a mixed one.
import type { Result } from "../../result.ts";
import { readFileSync, statSync } from "node:fs";
import type { Json, JsonObject } from "../../json.ts";
import type { ApprovalDetail } from "../events.ts";
import type { ToolOutput } from "../tool.ts";
import { atomicWrite } from "../../platform/atomic-write.ts";
import { errorText, refuseNonRegular, resolvePath, stringArg, textResult } from "./common.ts";
import { unifiedDiff } from "./diff.ts";
import { customParam, defineTool, stringParam } from "./define.ts";
import { sandboxRefusal } from "../sandbox/tool-check.ts";

const DESCRIPTION = `Edit a file by replacing exact text.
Each entry in edits has oldText (copied exactly from the file, including whitespace and indentation) and newText (its replacement).
Every oldText must occur exactly once in the file; include enough surrounding lines to make it unique. Edits must not overlap. All edits are applied together, or none is (the file is left untouched on any error).
Line endings and a byte-order mark are preserved. The result is a unified diff of the change.
Use write to create new files or rewrite a file completely.`;

type Edit = { oldText: string; newText: string };
type Match = { index: number; edit: number; oldText: string; newText: string };

const BOM = "\uFEFF";

const EDITS_SCHEMA = {
  type: "array",
  minItems: 1,
  description: "Replacements, applied together.",
  items: {
    type: "object",
    properties: {
      oldText: { type: "string", description: "Exact text to replace; must occur exactly once." },
      newText: { type: "string", description: "Replacement text." },
    },
    required: ["oldText", "newText"],
  },
};

const editsParam = customParam(EDITS_SCHEMA, (v) => {
  const edits = decodeEdits(v);
  return typeof edits === "string" ? { ok: false, error: edits } : { ok: true, value: edits };
});

export const editTool = defineTool({
  name: "edit",
  description: DESCRIPTION,
  params: {
    path: stringParam("Path of the file to edit (relative to the working directory, or absolute).", { nonEmpty: true }),
    edits: editsParam,
  },
  preview(args: JsonObject): string {
    const path = stringArg(args, "path") ?? "?";
    const n = Array.isArray(args.edits) ? args.edits.length : 0;
    return `edit ${path} (${n} ${n === 1 ? "change" : "changes"})`;
  },
  approval(args, cwd): ApprovalDetail {
    const planned = prepare(args, cwd);
    if (!planned.ok) return { kind: "json", json: JSON.stringify(args, null, 2), note: `This edit will fail: ${planned.error}` };
    return { kind: "diff", path: planned.abs, diff: unifiedDiff(planned.text, planned.next, { oldLabel: planned.abs, newLabel: planned.abs }) };
  },
  async execute(args, ctx): Promise<ToolOutput> {
    // Before the file is read: a hidden file's content must not reach the model through an error.
    const refused = sandboxRefusal("write", resolvePath(ctx.cwd, args.path), ctx);
    if (refused) return refused;
    const editor = ctx.editor;
    // In an editor that offers it, the edit applies to the buffer as the user sees it, unsaved changes included.
    let buffer: string | undefined;
    if (editor?.readText) {
      const abs = resolvePath(ctx.cwd, args.path);
      if (isFile(abs)) {
        const r = await editor.readText(abs);
        if (!r.ok) return textResult(`Could not read ${abs} through the editor (${r.error}).`, true);
        buffer = r.text;
      }
    }
    const planned = prepare(args, ctx.cwd, buffer);
    if (!planned.ok) return textResult(planned.error, true);
    const { abs, bom, crlf, text, next, count } = planned;
    const out = (bom ? BOM : "") + (crlf ? next.replace(/\n/g, "\r\n") : next);
    try {
      if (editor?.writeText) {
        const r = await editor.writeText(abs, out);
        if (!r.ok) return textResult(`Could not write ${abs} through the editor (${r.error}); the file is unchanged.`, true);
      } else atomicWrite(abs, out);
    } catch (err) {
      return textResult(`Could not write ${abs} (${errorText(err)}); the file is unchanged.`, true);
    }
    const diff = unifiedDiff(text, next, { oldLabel: abs, newLabel: abs });
    const summary = `Edited ${abs}: ${count} ${count === 1 ? "replacement" : "replacements"} applied.`;
    return textResult(diff === "" ? summary : `${summary}\n\n${diff}`);
  },
});

type Prepared = Result<{ abs: string; bom: boolean; crlf: boolean; text: string; next: string; count: number }>;

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

/**
 * Reads the file and applies the edits in memory: what execute writes and what the approval dialog
 * shows. `buffer`: the file's text as the editor has it, used instead of the bytes on disk.
 */
function prepare({ path, edits }: { path: string; edits: Edit[] }, cwd: string, buffer?: string): Prepared {
  const fail = (error: string): Prepared => ({ ok: false, error });
  const abs = resolvePath(cwd, path);
  let bytes: Buffer;
  try {
    if (statSync(abs).isDirectory()) return fail(`${abs} is a directory; edit only changes files.`);
    // Reading a FIFO would hang and "editing" a device would replace it: only regular files.
    const refusal = refuseNonRegular(abs, "edit");
    if (refusal) return fail(refusal);
    bytes = buffer === undefined ? readFileSync(abs) : Buffer.from(buffer, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return fail(`File not found: ${abs} (use the write tool to create a new file).`);
    return fail(`Could not read ${abs} (${errorText(err)}).`);
  }
  if (bytes.includes(0)) return fail(`${abs} looks like a binary file; edit only changes text files.`);
  let raw: string;
  try {
    raw = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // Decoding with replacement characters and writing back would corrupt every non-UTF-8 byte.
    return fail(`${abs} is not valid UTF-8, so edit would corrupt it; use the bash tool (for example sed or iconv) instead.`);
  }
  const bom = raw.startsWith(BOM);
  const body = bom ? raw.slice(1) : raw;
  const crlf = usesCrlf(body);
  const text = body.replace(/\r\n/g, "\n");
  const planned = planEdits(text, edits, abs);
  if (typeof planned === "string") return fail(planned);
  let next = text;
  for (const m of [...planned].sort((x, y) => y.index - x.index)) next = next.slice(0, m.index) + m.newText + next.slice(m.index + m.oldText.length);
  if (next === text) return fail(`The edits leave ${abs} unchanged (every newText equals its oldText); nothing was written.`);
  return { ok: true, abs, bom, crlf, text, next, count: edits.length };
}

function decodeEdits(v: Json | undefined): Edit[] | string {
  if (!Array.isArray(v) || v.length === 0) return `edit needs an "edits" array with at least one {oldText, newText} entry.`;
  const out: Edit[] = [];
  for (let i = 0; i < v.length; i++) {
    const e = v[i];
    if (e === null || typeof e !== "object" || Array.isArray(e) || typeof e.oldText !== "string" || typeof e.newText !== "string") {
      return `edits[${i}] must be an object with string fields oldText and newText.`;
    }
    if (e.oldText === "") return `edits[${i}].oldText is empty; it must be text copied from the file.`;
    out.push({ oldText: e.oldText.replace(/\r\n/g, "\n"), newText: e.newText.replace(/\r\n/g, "\n") });
  }
  return out;
}

/** Finds every edit's single occurrence, or explains in one sentence why the set can't apply. */
function planEdits(text: string, edits: Edit[], abs: string): Match[] | string {
  const matches: Match[] = [];
  for (const [i, { oldText, newText }] of edits.entries()) {
    const label = edits.length === 1 ? "oldText" : `edits[${i}].oldText`;
    const count = occurrences(text, oldText);
    if (count === 0)
      return `${label} was not found in ${abs}; it must match the file exactly, including whitespace and indentation (read the file again to copy it). No edits were applied.`;
    if (count > 1) return `${label} occurs ${count} times in ${abs}; include more surrounding lines so it matches exactly once. No edits were applied.`;
    matches.push({ index: text.indexOf(oldText), edit: i, oldText, newText });
  }
  const sorted = [...matches].sort((x, y) => x.index - y.index);
  for (const [i, cur] of sorted.entries()) {
    const prev = sorted[i - 1];
    if (prev && cur.index < prev.index + prev.oldText.length) {
      return `edits[${prev.edit}] and edits[${cur.edit}] overlap in ${abs}; merge them into one edit. No edits were applied.`;
    }
  }
  return matches;
}

/** Counts occurrences, overlapping ones included: "aa" in "aaa" is ambiguous, so it counts twice. */
function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) n++;
  return n;
}

/** A file counts as CRLF when most of its line breaks are CRLF. */
function usesCrlf(text: string): boolean {
  const crlf = text.split("\r\n").length - 1;
  if (crlf === 0) return false;
  const lf = text.split("\n").length - 1;
  return crlf * 2 >= lf;
}
