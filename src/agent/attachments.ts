// `@path` in a prompt attaches the file: its text (up to a cap, cut at a line with a note saying
// how to read the rest) or, for PNG/JPEG/GIF/WebP, the image itself. A mention that names no file
// (an e-mail address, a handle) is left alone.
import { realpathSync, statSync } from "node:fs";
import type { ImagePart, TextPart } from "./messages.ts";
import { formatBytes, imageMime, looksBinary, READ_MAX_BYTES, READ_MAX_IMAGE_BYTES } from "./tools/read.ts";
import { isPseudoFile, presentPseudo, PSEUDO_MAX_BYTES, readToEnd } from "./tools/pseudo-file.ts";
import { resolvePath } from "./tools/common.ts";

/** All attached text together stays under this; later files are refused once it is reached. */
export const ATTACH_TOTAL_MAX_BYTES = 4 * READ_MAX_BYTES;
const FILE_OPEN = "<file path=";

export type Attached = { path: string; summary: string; level: "info" | "warn" };
export type Mentions = { parts: (TextPart | ImagePart)[]; attached: Attached[] };

/** `@path`, or `@"path with spaces"` (what a dropped or pasted image path becomes). */
const MENTION = /(?:^|\s)@(?:"([^"\n]+)"|(\S+))/g;
const TRAILING = /[,.;:!?)\]}'"]+$/;

export function attachMentions(text: string, cwd: string): Mentions {
  const out: Mentions = { parts: [], attached: [] };
  const seen = new Set<string>();
  let budget = ATTACH_TOTAL_MAX_BYTES;
  for (const m of text.matchAll(MENTION)) {
    const found = existingFile(cwd, m[1] ?? m[2]!);
    if (!found || seen.has(found.abs)) continue;
    seen.add(found.abs);
    const { rel, abs, size } = found;
    if (size > READ_MAX_IMAGE_BYTES && size > budget) {
      out.attached.push({ path: rel, summary: `@${rel} is ${formatBytes(size)}, too large to attach; ask the model to read it`, level: "warn" });
      continue;
    }
    // Never more than the read tool would take: a size of 0 may be a lie (procfs makes content as
    // it is read: /proc/self/pagemap never ends), so the read is bounded, not sized by stat.
    const pseudo = isPseudoFile(realpathSync(abs));
    let bytes: Buffer;
    let whole: boolean;
    try {
      const got = readToEnd(abs, pseudo ? PSEUDO_MAX_BYTES : Math.max(READ_MAX_IMAGE_BYTES, READ_MAX_BYTES));
      bytes = pseudo ? presentPseudo(got.bytes) : got.bytes;
      whole = !got.truncated;
    } catch (err) {
      out.attached.push({ path: rel, summary: `@${rel} could not be read (${err instanceof Error ? err.message : String(err)})`, level: "warn" });
      continue;
    }
    const mime = imageMime(bytes.subarray(0, 16));
    if (mime) {
      if (!whole || bytes.length > READ_MAX_IMAGE_BYTES) {
        out.attached.push({
          path: rel,
          summary: `@${rel} is a ${formatBytes(Math.max(size, bytes.length))} image, larger than the ${formatBytes(READ_MAX_IMAGE_BYTES)} a model accepts; not attached`,
          level: "warn",
        });
        continue;
      }
      out.parts.push(
        { type: "text", text: `${FILE_OPEN}"${rel}">(the ${mime} image follows)</file>` },
        { type: "image", mimeType: mime, data: bytes.toString("base64") },
      );
      out.attached.push({ path: rel, summary: `attached @${rel} as an image (${formatBytes(bytes.length)})`, level: "info" });
      continue;
    }
    if (looksBinary(bytes.subarray(0, 8192))) {
      out.attached.push({ path: rel, summary: `@${rel} is a binary file; not attached`, level: "warn" });
      continue;
    }
    if (budget <= 0) {
      out.attached.push({ path: rel, summary: `@${rel} not attached: the attachments already reach ${formatBytes(ATTACH_TOTAL_MAX_BYTES)}`, level: "warn" });
      continue;
    }
    const cap = Math.min(READ_MAX_BYTES, budget);
    const all = bytes.toString("utf8");
    const length = whole ? formatBytes(bytes.length) : pseudo ? `more than ${formatBytes(bytes.length)}` : formatBytes(size);
    let body = all;
    let note = "";
    if (bytes.length > cap || !whole) {
      const head = bytes.subarray(0, cap).toString("utf8");
      const lastBreak = head.lastIndexOf("\n");
      body = lastBreak > 0 ? head.slice(0, lastBreak + 1) : head;
      const shownLines = body.split("\n").length - 1;
      const totalLines = all.split("\n").length - (all.endsWith("\n") ? 1 : 0);
      const of = whole ? `of ${totalLines}` : `of more than ${totalLines}`;
      note = `\n[zot: cut to lines 1-${shownLines} ${of} (${formatBytes(Buffer.byteLength(body))} of ${length}); use the read tool with offset ${shownLines + 1} for the rest]`;
    }
    budget -= Buffer.byteLength(body);
    out.parts.push({ type: "text", text: `${FILE_OPEN}"${rel}">\n${body}${body.endsWith("\n") || body === "" ? "" : "\n"}</file>${note}` });
    out.attached.push(
      note
        ? { path: rel, summary: `attached @${rel}, cut to ${formatBytes(Buffer.byteLength(body))} of ${length} (the model can read the rest)`, level: "warn" }
        : { path: rel, summary: `attached @${rel} (${length})`, level: "info" },
    );
  }
  return out;
}

/** The path an attachment part stands for, or null for a part the user typed. */
export function attachmentPath(part: TextPart): string | null {
  if (!part.text.startsWith(FILE_OPEN)) return null;
  const m = /^<file path="([^"]*)">/.exec(part.text);
  return m ? m[1]! : null;
}

/** The mention as a file, trying it with trailing punctuation dropped ("see @a.ts."). */
function existingFile(cwd: string, token: string): { rel: string; abs: string; size: number } | null {
  for (const rel of [token, token.replace(TRAILING, "")]) {
    if (rel === "") continue;
    const abs = resolvePath(cwd, rel);
    try {
      const st = statSync(abs);
      if (st.isFile()) return { rel, abs, size: st.size };
    } catch {
      // Not a file: maybe without the punctuation.
    }
  }
  return null;
}
