// The `write` tool: create or replace a whole file, atomically.
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { JsonObject } from "../../json.ts";
import type { ApprovalDetail } from "../events.ts";
import type { ToolOutput } from "../tool.ts";
import { defineTool, stringParam } from "./define.ts";
import { atomicWrite } from "../../platform/atomic-write.ts";
import { countLines, errorText, refuseNonRegular, resolvePath, stringArg, textResult } from "./common.ts";
import { unifiedDiff } from "./diff.ts";
import { sandboxRefusal } from "../sandbox/tool-check.ts";

/** An existing file larger than this is not read for the approval diff; the new content is shown instead. */
const DIFF_MAX_BYTES = 2 * 1024 * 1024;

const DESCRIPTION = `Write a file, creating it (and any missing parent directories) or replacing it entirely.
The write is atomic: the file ends up with either the old or the new content, never a mix. An existing file keeps its permissions, owner and hard links; only regular files are written (devices, pipes and sockets are refused).
Use this for new files or complete rewrites; prefer the edit tool for changing part of an existing file.
Arguments: path (relative to the working directory, or absolute) and content (the full new text).`;

export const writeTool = defineTool({
  name: "write",
  description: DESCRIPTION,
  params: {
    path: stringParam("Path of the file to write (relative to the working directory, or absolute).", { nonEmpty: true }),
    content: stringParam("The complete content of the file.", { hint: '(use "" for an empty file)' }),
  },
  preview(args: JsonObject): string {
    const path = stringArg(args, "path") ?? "?";
    const content = stringArg(args, "content");
    return content === undefined ? `write ${path}` : `write ${path} (${Buffer.byteLength(content)} bytes)`;
  },
  approval({ path, content }, cwd): ApprovalDetail {
    const abs = resolvePath(cwd, path);
    const old = existingText(abs);
    if (old.kind === "missing") return { kind: "content", path: abs, content, note: "new file" };
    if (old.kind === "refused") return { kind: "content", path: abs, content, note: `This write will fail: ${old.why}` };
    if (old.kind === "unreadable") return { kind: "content", path: abs, content, note: `replaces the existing file, which is not shown (${old.why})` };
    const diff = unifiedDiff(old.text, content, { oldLabel: abs, newLabel: abs });
    return diff === "" ? { kind: "content", path: abs, content, note: "same content as the existing file" } : { kind: "diff", path: abs, diff };
  },
  async execute({ path, content }, ctx): Promise<ToolOutput> {
    const abs = resolvePath(ctx.cwd, path);
    const refused = sandboxRefusal("write", abs, ctx);
    if (refused) return refused;
    let existed = false;
    try {
      const st = statSync(abs);
      if (st.isDirectory()) return textResult(`Cannot write ${abs}: it is a directory.`, true);
      const refusal = refuseNonRegular(abs, "write");
      if (refusal) return textResult(refusal, true);
      existed = true;
    } catch {
      // Does not exist yet: created below.
    }
    try {
      mkdirSync(dirname(abs), { recursive: true });
      // In an editor that offers it, the write lands in the editor's buffer (which saves it).
      const viaEditor = ctx.editor?.writeText;
      if (viaEditor) {
        const r = await viaEditor(abs, content);
        if (!r.ok) return textResult(`Could not write ${abs} through the editor (${r.error}).`, true);
      } else atomicWrite(abs, content);
    } catch (err) {
      return textResult(`Could not write ${abs} (${errorText(err)}).`, true);
    }
    const bytes = Buffer.byteLength(content);
    const lines = countLines(content);
    return textResult(`${existed ? "Overwrote" : "Created"} ${abs} (${bytes} bytes, ${lines} ${lines === 1 ? "line" : "lines"}).`);
  },
});

function existingText(
  abs: string,
): { kind: "missing" } | { kind: "refused"; why: string } | { kind: "unreadable"; why: string } | { kind: "text"; text: string } {
  try {
    const st = statSync(abs);
    if (st.isDirectory()) return { kind: "unreadable", why: "it is a directory" };
    // Reading a FIFO for the diff would hang the dialog; execute refuses it anyway.
    const refusal = refuseNonRegular(abs, "write");
    if (refusal) return { kind: "refused", why: refusal };
    if (st.size > DIFF_MAX_BYTES) return { kind: "unreadable", why: `${st.size} bytes, too large to compare` };
    const bytes = readFileSync(abs);
    if (bytes.includes(0)) return { kind: "unreadable", why: "it is binary" };
    return { kind: "text", text: bytes.toString("utf8").replace(/\r\n/g, "\n") };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    return { kind: "unreadable", why: errorText(err) };
  }
}
