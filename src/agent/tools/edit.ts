// The `edit` tool: exact, unique text replacements, applied together or not at all. Matching runs
// on LF-normalised text without the BOM, and the file is written back with its own BOM and line
// endings, so editing a CRLF file doesn't turn it into a mixed one.
import type { Result } from "../../result.ts";
import { isUtf8 } from "node:buffer";
import { readFileSync, statSync, type Stats } from "node:fs";
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
/** Byte offsets and UTF-8 bytes. */
type Match = { index: number; edit: number; oldText: Buffer; newText: Buffer };

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
    approved = new WeakRef({ edits: args.edits, plan: planned });
    return { kind: "diff", path: planned.abs, diff: diffOf(planned) };
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
    const planned = (buffer === undefined ? takeApproved(args, ctx.cwd) : undefined) ?? prepare(args, ctx.cwd, buffer);
    if (!planned.ok) return textResult(planned.error, true);
    const { abs, count } = planned;
    const out = written(planned);
    try {
      if (editor?.writeText) {
        const r = await editor.writeText(abs, Buffer.concat(out).toString("utf8"));
        if (!r.ok) return textResult(`Could not write ${abs} through the editor (${r.error}); the file is unchanged.`, true);
      } else atomicWrite(abs, out);
    } catch (err) {
      return textResult(`Could not write ${abs} (${errorText(err)}); the file is unchanged.`, true);
    }
    const diff = diffOf(planned);
    const summary = `Edited ${abs}: ${count} ${count === 1 ? "replacement" : "replacements"} applied.`;
    return textResult(diff === "" ? summary : `${summary}\n\n${diff}`);
  },
});

/**
 * An edit planned on the file's bytes: `text` is the file without its BOM and with CRLF read as LF
 * (the bytes read, or one normalised copy when the file has a CR), `matches` the replacements in
 * file order. The new file is written from the read buffer in pieces (see `written`): a 100 MB file
 * as a string, its LF copy, the edited copy and its encoding were five copies of it (906 MiB for one edit).
 */
type Plan = { abs: string; stamp: string; bom: boolean; crlf: boolean; text: Buffer; matches: Match[]; count: number };
type Prepared = Result<Plan>;

/**
 * The plan of the last approval detail, for execute to take while the file is as it was then: the
 * loop computes the detail of every edit call before running it, and reading a big file a second
 * time held it twice. Weak, so a plan that is never run is not kept.
 */
let approved: WeakRef<{ edits: readonly Edit[]; plan: Plan }> | undefined;

function takeApproved({ path, edits }: { path: string; edits: Edit[] }, cwd: string): Prepared | undefined {
  const made = approved?.deref();
  approved = undefined;
  if (!made || made.plan.abs !== resolvePath(cwd, path) || made.edits.length !== edits.length) return undefined;
  if (made.edits.some((e, i) => e.oldText !== edits[i]?.oldText || e.newText !== edits[i]?.newText)) return undefined;
  try {
    if (stampOf(statSync(made.plan.abs)) !== made.plan.stamp) return undefined;
  } catch {
    return undefined;
  }
  return { ok: true, ...made.plan };
}

/** Changes with any write to the file (ctime, even one that keeps the size and sets the mtime back). */
function stampOf(st: Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

const UTF8_BOM = Buffer.from(BOM, "utf8");
const LF = 10;
const CR = 13;

/**
 * Reads the file and plans the edits: what execute writes and what the approval dialog shows.
 * `buffer`: the file's text as the editor has it, used instead of the bytes on disk.
 */
function prepare({ path, edits }: { path: string; edits: Edit[] }, cwd: string, buffer?: string): Prepared {
  const fail = (error: string): Prepared => ({ ok: false, error });
  const abs = resolvePath(cwd, path);
  let bytes: Buffer;
  let stamp: string;
  try {
    // Taken before the read: a write in between makes it stale, never a stale plan current.
    const st = statSync(abs);
    if (st.isDirectory()) return fail(`${abs} is a directory; edit only changes files.`);
    stamp = stampOf(st);
    // Reading a FIFO would hang and "editing" a device would replace it: only regular files.
    const refusal = refuseNonRegular(abs, "edit");
    if (refusal) return fail(refusal);
    bytes = buffer === undefined ? readFileSync(abs) : Buffer.from(buffer, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return fail(`File not found: ${abs} (use the write tool to create a new file).`);
    return fail(`Could not read ${abs} (${errorText(err)}).`);
  }
  if (bytes.includes(0)) return fail(`${abs} looks like a binary file; edit only changes text files.`);
  // Decoding with replacement characters and writing back would corrupt every non-UTF-8 byte.
  if (!isUtf8(bytes)) return fail(`${abs} is not valid UTF-8, so edit would corrupt it; use the bash tool (for example sed or iconv) instead.`);
  const bom = bytes.subarray(0, UTF8_BOM.length).equals(UTF8_BOM);
  const body = bom ? bytes.subarray(UTF8_BOM.length) : bytes;
  const hasCr = body.includes(CR);
  const crlf = hasCr && usesCrlf(body);
  const text = hasCr ? withoutCrlf(body) : body;
  const planned = planEdits(text, edits, abs);
  if (typeof planned === "string") return fail(planned);
  if (unchanged(text, planned)) return fail(`The edits leave ${abs} unchanged (every newText equals its oldText); nothing was written.`);
  return { ok: true, abs, stamp, bom, crlf, text, matches: planned, count: edits.length };
}

/** The edited span, and only that, rebuilt and compared: outside it the text stays as it is. */
function unchanged(text: Buffer, matches: readonly Match[]): boolean {
  const first = matches[0];
  const last = matches[matches.length - 1];
  if (!first || !last) return true;
  const grown = matches.reduce((n, m) => n + m.newText.length - m.oldText.length, 0);
  if (grown !== 0) return false;
  const end = last.index + last.oldText.length;
  return spliced(text, matches, first.index, end).equals(text.subarray(first.index, end));
}

/** text[from, to) with the matches inside it replaced. */
function spliced(text: Buffer, matches: readonly Match[], from: number, to: number): Buffer {
  const parts: Buffer[] = [];
  let at = from;
  for (const m of matches) {
    parts.push(text.subarray(at, m.index), m.newText);
    at = m.index + m.oldText.length;
  }
  parts.push(text.subarray(at, to));
  return Buffer.concat(parts);
}

/**
 * The new file as the pieces written one after the other: its BOM, the unchanged spans of the read
 * buffer and the replacements, so an LF file is never copied; a CRLF file's LF text is written back
 * with CRLF line breaks, built once.
 */
function written({ bom, crlf, text, matches }: Plan): Uint8Array[] {
  const pieces: Uint8Array[] = bom ? [UTF8_BOM] : [];
  let from = 0;
  for (const m of matches) {
    pieces.push(text.subarray(from, m.index), m.newText);
    from = m.index + m.oldText.length;
  }
  pieces.push(text.subarray(from));
  return crlf ? pieces.map(withCrlf) : pieces;
}

/** The bytes with every LF as CRLF. */
function withCrlf(bytes: Uint8Array): Buffer {
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const out = Buffer.allocUnsafe(src.length + lineBreaks(src, 0, src.length));
  let at = 0;
  let from = 0;
  for (let nl = src.indexOf(LF); nl !== -1; nl = src.indexOf(LF, from)) {
    at += src.copy(out, at, from, nl);
    out[at++] = CR;
    out[at++] = LF;
    from = nl + 1;
  }
  src.copy(out, at, from);
  return out;
}

/** Lines of context the diff shows around a change. */
const CONTEXT = 3;

/**
 * The unified diff of the edit, computed on the lines around the changes only (the diff trims
 * the rest anyway, but would need the whole old and new text as strings first).
 */
function diffOf(plan: Plan): string {
  const { abs, text, matches } = plan;
  const first = matches[0];
  const last = matches[matches.length - 1];
  if (!first || !last) return "";
  // (A negative offset would make lastIndexOf search from the end: the first lines are their own case.)
  let start = first.index === 0 ? 0 : text.lastIndexOf(LF, first.index - 1) + 1;
  for (let i = 0; i <= CONTEXT && start > 0; i++) start = start < 2 ? 0 : text.lastIndexOf(LF, start - 2) + 1;
  let end = last.index + last.oldText.length;
  for (let i = 0; i <= CONTEXT && end < text.length; i++) {
    const nl = text.indexOf(LF, end);
    end = nl === -1 ? text.length : nl + 1;
  }
  return unifiedDiff(text.toString("utf8", start, end), spliced(text, matches, start, end).toString("utf8"), {
    oldLabel: abs,
    newLabel: abs,
    firstLine: lineBreaks(text, 0, start),
  });
}

/** Line breaks in bytes[from, to). */
function lineBreaks(bytes: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = bytes.indexOf(LF, from); i !== -1 && i < to; i = bytes.indexOf(LF, i + 1)) n++;
  return n;
}

/** The bytes with every CRLF as LF (lone CRs stay), in one new buffer. */
function withoutCrlf(bytes: Buffer): Buffer {
  const out = Buffer.allocUnsafe(bytes.length);
  let at = 0;
  let from = 0;
  for (let nl = bytes.indexOf(LF); nl !== -1; nl = bytes.indexOf(LF, nl + 1)) {
    if (nl > from && bytes[nl - 1] === CR) {
      at += bytes.copy(out, at, from, nl - 1);
      from = nl;
    }
  }
  at += bytes.copy(out, at, from);
  return out.subarray(0, at);
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

/** Finds every edit's single occurrence, in file order, or explains in one sentence why the set can't apply. */
function planEdits(text: Buffer, edits: Edit[], abs: string): Match[] | string {
  const matches: Match[] = [];
  for (const [i, edit] of edits.entries()) {
    const label = edits.length === 1 ? "oldText" : `edits[${i}].oldText`;
    // UTF-8 is self-synchronising: a valid needle found in valid text starts on a character, so bytes match as the text would.
    const oldText = Buffer.from(edit.oldText, "utf8");
    const count = occurrences(text, oldText);
    if (count === 0)
      return `${label} was not found in ${abs}; it must match the file exactly, including whitespace and indentation (read the file again to copy it). No edits were applied.`;
    if (count > 1) return `${label} occurs ${count} times in ${abs}; include more surrounding lines so it matches exactly once. No edits were applied.`;
    matches.push({ index: text.indexOf(oldText), edit: i, oldText, newText: Buffer.from(edit.newText, "utf8") });
  }
  matches.sort((x, y) => x.index - y.index);
  for (const [i, cur] of matches.entries()) {
    const prev = matches[i - 1];
    if (prev && cur.index < prev.index + prev.oldText.length) {
      return `edits[${prev.edit}] and edits[${cur.edit}] overlap in ${abs}; merge them into one edit. No edits were applied.`;
    }
  }
  return matches;
}

/** Counts occurrences, overlapping ones included: "aa" in "aaa" is ambiguous, so it counts twice. */
function occurrences(text: Buffer, needle: Buffer): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) n++;
  return n;
}

/** A file counts as CRLF when most of its line breaks are CRLF. */
function usesCrlf(bytes: Buffer): boolean {
  let lf = 0;
  let crlf = 0;
  for (let i = bytes.indexOf(LF); i !== -1; i = bytes.indexOf(LF, i + 1)) {
    lf++;
    if (i > 0 && bytes[i - 1] === CR) crlf++;
  }
  return crlf > 0 && crlf * 2 >= lf;
}
