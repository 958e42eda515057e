// The system clipboard, both ways. /copy sends text through the first clipboard tool on PATH
// (wl-copy, xclip, pbcopy) and always as an OSC 52 escape too, which terminals (and tmux, and SSH
// sessions) pass to the clipboard of the machine the user sits at. ctrl+v reads an image through
// wl-paste, xclip or pbpaste and keeps it in a private temp file that a prompt attaches as `@path`.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lookPath } from "../../platform/exec-path.ts";

/** OSC 52 "set clipboard" for `text`; terminals cap what they accept, so very long text may not arrive. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}

const COPY_TOOLS: readonly { name: string; args: string[] }[] = [
  { name: "wl-copy", args: [] },
  { name: "xclip", args: ["-selection", "clipboard", "-in"] },
  { name: "pbcopy", args: [] },
];

const PASTE_TOOLS: readonly { name: string; args: string[] }[] = [
  { name: "wl-paste", args: ["--no-newline", "--type", "image/png"] },
  { name: "xclip", args: ["-selection", "clipboard", "-t", "image/png", "-o"] },
  { name: "pbpaste", args: [] },
];

/** Tools that hold the terminal must not hang zot: a copy or paste that takes longer is given up. */
const TOOL_TIMEOUT_MS = 5000;

/** Copies `text` with the first tool that takes it; returns its name, or null when none is present or all failed. */
export function copyWithTool(text: string, env: Record<string, string | undefined> = process.env): string | null {
  for (const t of COPY_TOOLS) {
    const path = lookPath(t.name, env);
    if (!path) continue;
    const r = Bun.spawnSync([path, ...t.args], {
      stdin: Buffer.from(text, "utf8"),
      stdout: "ignore",
      stderr: "ignore",
      env: env as Record<string, string>,
      timeout: TOOL_TIMEOUT_MS,
    });
    if (r.exitCode === 0) return t.name;
  }
  return null;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

function imageExt(b: Buffer): string | null {
  if (b.subarray(0, 8).equals(PNG)) return "png";
  if (b.subarray(0, 3).equals(JPEG)) return "jpg";
  if (b.subarray(0, 6).toString("latin1") === "GIF89a" || b.subarray(0, 6).toString("latin1") === "GIF87a") return "gif";
  if (b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP") return "webp";
  return null;
}

let pasteDir: string | null = null;
let pasted = 0;

export type ClipboardImage = { ok: true; path: string; tool: string; bytes: number } | { ok: false; error: string };

/** The clipboard's image, saved as a file; the error names the tools tried. */
export function pasteImage(env: Record<string, string | undefined> = process.env): ClipboardImage {
  const tried: string[] = [];
  for (const t of PASTE_TOOLS) {
    const path = lookPath(t.name, env);
    if (!path) continue;
    tried.push(t.name);
    const r = Bun.spawnSync([path, ...t.args], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      env: env as Record<string, string>,
      timeout: TOOL_TIMEOUT_MS,
    });
    const bytes = r.exitCode === 0 ? r.stdout : null;
    const ext = bytes ? imageExt(bytes) : null;
    if (!bytes || !ext) continue;
    pasteDir ??= mkdtempSync(join(tmpdir(), "zot-clipboard-"));
    const file = join(pasteDir, `clipboard-${++pasted}.${ext}`);
    writeFileSync(file, bytes, { mode: 0o600 });
    return { ok: true, path: file, tool: t.name, bytes: bytes.length };
  }
  if (tried.length === 0)
    return { ok: false, error: "No clipboard tool to read an image with: install wl-clipboard (Wayland) or xclip (X11); pbpaste on macOS reads text only." };
  return { ok: false, error: `The clipboard holds no image (asked ${tried.join(", ")}); paste text with your terminal's paste key.` };
}
