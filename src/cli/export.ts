// `zot export SESSION --html FILE` / `--md FILE`: a transcript as one readable file, without starting
// a session. SESSION is a transcript path, or the id or file name (or a prefix of either) of one of
// this directory's sessions.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Env } from "../platform/env.ts";
import { zotHome } from "../platform/home.ts";
import { listSessions } from "../agent/session-list.ts";
import { exportTranscript, type ExportFormat } from "../agent/export/export-file.ts";
import type { ModeOutput } from "../modes/output.ts";

export const EXPORT_USAGE = "usage: zot export SESSION --html FILE | --md FILE  (SESSION: a transcript path, or a session id or file name from zot --resume)";

type Request = { session: string; format: ExportFormat; file: string };

export function parseExport(argv: readonly string[]): Request | string {
  let session: string | null = null;
  let format: ExportFormat | null = null;
  let file = "";
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = /^--(html|md)=(.*)$/.exec(a);
    const flag = eq ? eq[1] : a === "--html" || a === "--md" ? a.slice(2) : null;
    if (flag === "html" || flag === "md") {
      if (format !== null) return `give one of --html and --md, once (${EXPORT_USAGE})`;
      format = flag;
      const value = eq ? eq[2]! : argv[++i];
      if (value === undefined || value === "") return `--${flag} needs the file to write (${EXPORT_USAGE})`;
      file = value;
      continue;
    }
    if (a.startsWith("-")) return `zot export does not take ${a} (${EXPORT_USAGE})`;
    if (session !== null) return `zot export takes one SESSION, got "${session}" and "${a}" (${EXPORT_USAGE})`;
    session = a;
  }
  if (session === null) return `name the session to export (${EXPORT_USAGE})`;
  if (format === null) return `say which format to write: --html FILE or --md FILE (${EXPORT_USAGE})`;
  return { session, format, file };
}

/** A path that exists, else the one session of `cwd` whose id or file name starts with `wanted`. */
function findSession(wanted: string, home: string, cwd: string): { path: string } | { error: string } {
  const asPath = resolve(cwd, wanted);
  if (existsSync(asPath)) return { path: asPath };
  const all = listSessions(home, cwd, "all");
  const matches = all.filter((s) => s.id.startsWith(wanted) || (s.path.split("/").pop() ?? "").startsWith(wanted));
  if (matches.length === 1) return { path: matches[0]!.path };
  if (matches.length > 1)
    return {
      error: `"${wanted}" matches ${matches.length} sessions of ${cwd} (${matches.map((s) => s.path.split("/").pop()).join(", ")}); give more of the id`,
    };
  return { error: `no file ${asPath} and no session of ${cwd} whose id or file name starts with "${wanted}"; zot --resume lists them` };
}

export function runExport(argv: readonly string[], env: Env, cwd: string, io: ModeOutput): number {
  const req = parseExport(argv);
  if (typeof req === "string") {
    io.err(`zot: ${req}\n`);
    return 2;
  }
  const found = findSession(req.session, zotHome(env), cwd);
  if ("error" in found) {
    io.err(`zot: ${found.error}\n`);
    return 1;
  }
  const r = exportTranscript(found.path, req.format, req.file, cwd);
  if (!r.ok) {
    io.err(`zot: ${r.error}\n`);
    return 1;
  }
  for (const w of r.warnings) io.err(`zot: ${w}\n`);
  io.out(`${r.path}\n`);
  return 0;
}
