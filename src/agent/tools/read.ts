// The `read` tool: text files page by page (small ones read whole, large ones streamed, so any offset
// in a huge file is reachable), images as image blocks, and clear refusals for directories and binary files.
import { closeSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { JsonObject } from "../../json.ts";
import type { Result } from "../../result.ts";
import type { ToolOutput } from "../tool.ts";
import { errorText, resolvePath, stringArg, textResult } from "./common.ts";
import { defineTool, positiveIntegerParam, stringParam } from "./define.ts";
import { isPseudoFile, presentPseudo, PSEUDO_MAX_BYTES, readToEnd } from "./pseudo-file.ts";
import { sandboxRefusal } from "../sandbox/tool-check.ts";
import { shellQuote } from "../../shell-quote.ts";

export const READ_MAX_LINES = 2000;
export const READ_MAX_BYTES = 50 * 1024;
export const READ_MAX_LINE_CHARS = 2000;
/** Base64 grows data by 4/3; providers cap an encoded image at about 5 MB. */
export const READ_MAX_IMAGE_BYTES = 3_750_000;
const CHUNK = 64 * 1024;
const SNIFF = 8 * 1024;
/** Files up to this size are read whole and synchronously; larger ones are streamed a chunk at a time. */
export const READ_WHOLE_MAX_BYTES = 1024 * 1024;
/** Up to this size the note says how many lines the file has; beyond it we don't scan to the end. */
const COUNT_LIMIT = 16 * 1024 * 1024;

const DESCRIPTION = `Read a file from the filesystem.
Text files: returns up to ${READ_MAX_LINES} lines or ${READ_MAX_BYTES / 1024} KiB per call, whichever comes first; a note at the end says how to continue. Use offset (1-based line number) and limit (number of lines) to page through large files; any offset is reachable. Lines longer than ${READ_MAX_LINE_CHARS} characters are cut, with a note.
Images (PNG, JPEG, GIF, WebP) are returned as images you can see.
Directories and binary files are refused; use the bash tool (ls, file, xxd) for those.
Paths are relative to the working directory, or absolute.`;

type Page = {
  lines: string[];
  first: number;
  /** True when the page stopped before the end of the file. */
  more: boolean;
  byBytes: boolean;
  cut: number[];
  /** Lines seen in total; exact when the whole file was read. */
  seen: number;
};

export const readTool = defineTool({
  name: "read",
  description: DESCRIPTION,
  params: {
    path: stringParam("Path of the file to read (relative to the working directory, or absolute).", { nonEmpty: true }),
    offset: positiveIntegerParam("1-based line number to start from (default 1)."),
    limit: positiveIntegerParam(`Maximum number of lines to return (default and maximum ${READ_MAX_LINES}).`),
  },
  preview(args: JsonObject): string {
    const path = stringArg(args, "path") ?? "?";
    const offset = typeof args.offset === "number" ? args.offset : undefined;
    const limit = typeof args.limit === "number" ? args.limit : undefined;
    if (offset === undefined && limit === undefined) return `read ${path}`;
    const from = offset ?? 1;
    return limit === undefined ? `read ${path} from line ${from}` : `read ${path} lines ${from}-${from + limit - 1}`;
  },
  async execute({ path, offset, limit }, ctx): Promise<ToolOutput> {
    const abs = resolvePath(ctx.cwd, path);
    const refused = sandboxRefusal("read", abs, ctx);
    if (refused) return refused;
    try {
      const from = offset ?? 1;
      const lines = Math.min(limit ?? READ_MAX_LINES, READ_MAX_LINES);
      if (ctx.editor?.readText) {
        const viaEditor = await readInEditor(abs, from, lines, ctx.signal, ctx.editor.readText);
        if (viaEditor) return viaEditor;
      }
      return await readPath(abs, from, lines, ctx.signal);
    } catch (err) {
      return textResult(`Could not read ${abs} (${errorText(err)}).`, true);
    }
  },
});

/**
 * A text file through the editor (ACP's fs/read_text_file), so an unsaved buffer is what the model
 * reads; paged as from disk. Null for what the editor cannot give as text (images, binaries,
 * pseudo-files, large files, a path that is not a regular file): those are read from disk.
 */
async function readInEditor(
  abs: string,
  offset: number,
  limit: number,
  signal: AbortSignal,
  readText: (path: string) => Promise<Result<{ text: string }>>,
): Promise<ToolOutput | null> {
  try {
    const st = statSync(abs);
    if (!st.isFile() || st.size === 0 || st.size > READ_WHOLE_MAX_BYTES || isPseudoFile(realpathSync(abs))) return null;
    const head = Buffer.alloc(Math.min(SNIFF, st.size));
    const fd = openSync(abs, "r");
    try {
      readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
    if (imageMime(head) || looksBinary(head)) return null;
  } catch {
    return null;
  }
  const r = await readText(abs);
  if (!r.ok) return textResult(`Could not read ${abs} through the editor (${r.error}).`, true);
  const bytes = Buffer.from(r.text, "utf8");
  return fromBytes(abs, bytes, bytes.length, offset, limit, signal);
}

async function readPath(abs: string, offset: number, limit: number, signal: AbortSignal): Promise<ToolOutput> {
  let size: number;
  try {
    const st = statSync(abs);
    if (st.isDirectory())
      return textResult(`${abs} is a directory; read only reads files. Use the bash tool (for example \`ls -la ${shellQuote(abs)}\`) to list it.`, true);
    if (!st.isFile()) return textResult(`${abs} is not a regular file (a device, socket or pipe), so read won't open it.`, true);
    size = st.size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return textResult(`File not found: ${abs}`, true);
    throw err;
  }
  // A size of 0 may be a lie (procfs makes content as it is read), so such a file is read to its end.
  const pseudo = isPseudoFile(realpathSync(abs));
  if (size === 0 || pseudo) return readToEndOf(abs, pseudo, offset, limit, signal);
  if (size <= READ_WHOLE_MAX_BYTES) return readWhole(abs, size, offset, limit, signal);
  // node:fs/promises only for large files: loading it costs start-up memory on every run.
  const { open } = await import("node:fs/promises");
  const fh = await open(abs, "r");
  try {
    const head = Buffer.alloc(Math.min(SNIFF, size));
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    const sniff = head.subarray(0, bytesRead);
    const mime = imageMime(sniff);
    if (mime) return await readImage(fh, abs, mime, size);
    const refusal = refuseBinary(abs, sniff, size);
    if (refusal) return refusal;
    const page = new PageBuilder(offset, limit);
    const buf = Buffer.alloc(CHUNK);
    let position = 0;
    while (!page.stopped && !signal.aborted) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      page.push(buf.subarray(0, bytesRead));
    }
    return await pageResult(abs, offset, page.end(), size, signal, () => (size <= COUNT_LIMIT ? countFileLines(fh) : undefined));
  } finally {
    await fh.close();
  }
}

/**
 * A small file in one synchronous read: each asynchronous call is a round trip through the thread
 * pool that costs more than reading the file, and a tool loop reads many small files. Reads stop at
 * the size `stat` gave, so the result equals the streaming path's for any file that isn't changing.
 */
async function readWhole(abs: string, size: number, offset: number, limit: number, signal: AbortSignal): Promise<ToolOutput> {
  const data = Buffer.allocUnsafe(size);
  let got = 0;
  const fd = openSync(abs, "r");
  try {
    while (got < size) {
      const n = readSync(fd, data, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
  } finally {
    closeSync(fd);
  }
  return fromBytes(abs, data.subarray(0, got), size, offset, limit, signal);
}

/** procfs and sysfs files, and any file whose size is 0: read to the end, shown as masked text. */
async function readToEndOf(abs: string, pseudo: boolean, offset: number, limit: number, signal: AbortSignal): Promise<ToolOutput> {
  const { bytes: raw, truncated } = readToEnd(abs, PSEUDO_MAX_BYTES);
  const bytes = pseudo ? presentPseudo(raw) : raw;
  const out = await fromBytes(abs, bytes, bytes.length, offset, limit, signal);
  if (truncated && !out.isError) out.content.push({ type: "text", text: `\n[Only the first ${formatBytes(PSEUDO_MAX_BYTES)} of ${abs} were read.]` });
  return out;
}

function fromBytes(abs: string, bytes: Buffer, size: number, offset: number, limit: number, signal: AbortSignal): Promise<ToolOutput> {
  const got = bytes.length;
  const sniff = bytes.subarray(0, Math.min(SNIFF, got));
  const mime = imageMime(sniff);
  if (mime) return Promise.resolve(imageResult(abs, mime, bytes));
  const refusal = refuseBinary(abs, sniff, size);
  if (refusal) return Promise.resolve(refusal);
  const page = new PageBuilder(offset, limit);
  for (let at = 0; at < got && !page.stopped && !signal.aborted; at += CHUNK) page.push(bytes.subarray(at, at + CHUNK));
  return pageResult(abs, offset, page.end(), size, signal, () => countLines(bytes));
}

/** Binary and empty files are answered from the first bytes alone. */
function refuseBinary(abs: string, sniff: Uint8Array, size: number): ToolOutput | undefined {
  if (looksBinary(sniff)) {
    return textResult(
      `${abs} looks like a binary file (${formatBytes(size)}), so read won't show it. Use the bash tool (for example \`file\` or \`xxd | head\`) to inspect it.`,
      true,
    );
  }
  if (size === 0) return textResult(`${abs} is empty (0 bytes).`);
  return undefined;
}

/** The file's line count is asked for only when the page stopped early. */
async function pageResult(
  abs: string,
  offset: number,
  page: Page,
  size: number,
  signal: AbortSignal,
  countAll: () => number | undefined | Promise<number | undefined>,
): Promise<ToolOutput> {
  if (signal.aborted) return textResult(`Reading ${abs} was aborted.`, true);
  if (page.lines.length === 0) {
    return textResult(`offset ${offset} is beyond the end of ${abs}, which has ${page.seen} ${page.seen === 1 ? "line" : "lines"}.`, true);
  }
  const total = page.more ? await countAll() : page.seen;
  return textResult(page.lines.join("\n") + notes(page, total, size));
}

/** Builds one page from the file's bytes as they arrive; `stopped` says no more are needed. */
class PageBuilder {
  stopped = false;
  private readonly page: Page;
  private readonly offset: number;
  private readonly limit: number;
  private readonly decoder = new TextDecoder("utf-8");
  private bytes = 0;
  // The current line is kept only up to the cut length: a multi-gigabyte single line costs no memory.
  private cur = "";
  private curLen = 0;

  constructor(offset: number, limit: number) {
    this.offset = offset;
    this.limit = limit;
    this.page = { lines: [], first: offset, more: false, byBytes: false, cut: [], seen: 0 };
  }

  push(chunk: Uint8Array): void {
    this.feed(this.decoder.decode(chunk, { stream: true }));
  }

  end(): Page {
    if (!this.stopped) {
      this.feed(this.decoder.decode());
      if (!this.stopped && this.curLen > 0) this.finishLine();
    }
    return this.page;
  }

  private feed(text: string): void {
    let start = 0;
    while (!this.stopped) {
      const nl = text.indexOf("\n", start);
      const end = nl === -1 ? text.length : nl;
      if (this.page.seen + 1 >= this.offset && this.cur.length <= READ_MAX_LINE_CHARS) {
        this.cur += text.slice(start, Math.min(end, start + READ_MAX_LINE_CHARS + 1 - this.cur.length));
      }
      this.curLen += end - start;
      if (nl === -1) return;
      this.finishLine();
      this.cur = "";
      this.curLen = 0;
      start = nl + 1;
    }
  }

  private finishLine(): void {
    const page = this.page;
    page.seen++;
    if (page.seen < this.offset) return;
    if (page.lines.length >= this.limit) {
      page.more = true;
      this.stopped = true;
      return;
    }
    const long = this.curLen > READ_MAX_LINE_CHARS;
    let line = long ? this.cur.slice(0, READ_MAX_LINE_CHARS) : this.cur;
    if (!long && line.endsWith("\r")) line = line.slice(0, -1);
    if (long) {
      line += ` … [line cut: ${this.curLen - READ_MAX_LINE_CHARS} more characters]`;
      page.cut.push(page.seen);
    }
    const cost = Buffer.byteLength(line) + 1;
    if (page.lines.length > 0 && this.bytes + cost > READ_MAX_BYTES) {
      page.more = true;
      page.byBytes = true;
      this.stopped = true;
      return;
    }
    this.bytes += cost;
    page.lines.push(line);
  }
}

function notes(page: Page, total: number | undefined, size: number): string {
  const out: string[] = [];
  const last = page.first + page.lines.length - 1;
  if (page.more) {
    const of = total === undefined ? `; the file (${formatBytes(size)}) continues` : ` of ${total}`;
    const why = page.byBytes ? ` (${READ_MAX_BYTES / 1024} KiB per call)` : "";
    out.push(`[Showing lines ${page.first}-${last}${of}${why}. Use offset=${last + 1} to continue.]`);
  } else if (page.first > 1) {
    out.push(`[Showing lines ${page.first}-${last} of ${total ?? last}; end of file.]`);
  }
  if (page.cut.length > 0) {
    const shown = page.cut.slice(0, 5).join(", ") + (page.cut.length > 5 ? ` and ${page.cut.length - 5} more` : "");
    out.push(
      `[Line${page.cut.length === 1 ? "" : "s"} ${shown} ${page.cut.length === 1 ? "was" : "were"} longer than ${READ_MAX_LINE_CHARS} characters and cut; use the bash tool (for example \`sed -n 'Np' FILE | cut -c${READ_MAX_LINE_CHARS + 1}-\`) to see the rest.]`,
    );
  }
  return out.length === 0 ? "" : "\n\n" + out.join("\n");
}

async function countFileLines(fh: FileHandle): Promise<number> {
  const buf = Buffer.alloc(CHUNK);
  let position = 0;
  let lines = 0;
  let lastByte = 10;
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    lines += newlines(buf.subarray(0, bytesRead));
    lastByte = buf.readUInt8(bytesRead - 1);
  }
  return lastByte === 10 ? lines : lines + 1;
}

function countLines(data: Buffer): number {
  const lines = newlines(data);
  return data.length === 0 || data[data.length - 1] === 10 ? lines : lines + 1;
}

function newlines(data: Buffer): number {
  let n = 0;
  for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) n++;
  return n;
}

async function readImage(fh: FileHandle, abs: string, mime: string, size: number): Promise<ToolOutput> {
  if (size > READ_MAX_IMAGE_BYTES) {
    return textResult(
      `${abs} is a ${mime} image of ${formatBytes(size)}, larger than the ${formatBytes(READ_MAX_IMAGE_BYTES)} a model accepts. Shrink it first (for example with ImageMagick's \`convert -resize\`).`,
      true,
    );
  }
  const data = Buffer.alloc(size);
  let off = 0;
  while (off < size) {
    const { bytesRead } = await fh.read(data, off, size - off, off);
    if (bytesRead === 0) break;
    off += bytesRead;
  }
  return imageResult(abs, mime, data.subarray(0, off));
}

function imageResult(abs: string, mime: string, data: Buffer): ToolOutput {
  return {
    content: [
      { type: "text", text: `Image ${abs} (${mime}, ${formatBytes(data.length)})` },
      { type: "image", mimeType: mime, data: data.toString("base64") },
    ],
    isError: false,
  };
}

/** Identifies images by their magic bytes, never by the file name. */
export function imageMime(b: Uint8Array): string | undefined {
  const starts = (sig: number[], at = 0): boolean => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return "image/gif";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
}

/** A NUL byte, or invalid UTF-8 with many control bytes, means binary. */
export function looksBinary(b: Uint8Array): boolean {
  if (b.includes(0)) return true;
  // A sample may end inside a multi-byte character; drop up to three trailing bytes before judging.
  for (let trim = 0; trim <= Math.min(3, b.length); trim++) {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(b.subarray(0, b.length - trim));
      return false;
    } catch {
      // Try a shorter sample.
    }
  }
  let control = 0;
  for (const byte of b) if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) control++;
  return control > b.length * 0.1;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}
