// What /cost, /context, /export and /doctor say, as text: the TUI writes it into the chat, and
// `zot -p "/cost"` (with -c or --session, of a saved session) prints it, `--json` sends it as a
// command_result event.
import { EXPORT_FORMATS, isExportFormat, money, tokens, type AgentRuntime, type ContextPartKind, type ExportFormat } from "../runtime/api.ts";

export function costText(rt: AgentRuntime): string {
  const rows = rt.modelUsage();
  const total = rt.usage();
  if (rows.length === 0) return "No model calls in this session yet: it has cost nothing.";
  const names = rows.map((r) => (r.provider ? `${r.provider}/${r.model}` : r.model));
  const w = Math.max(5, ...names.map((n) => n.length));
  const line = (name: string, calls: number, u: typeof total): string =>
    `  ${name.padEnd(w)}  ${String(calls).padStart(5)} ${calls === 1 ? "call " : "calls"}  in ${tokens(u.input).padStart(9)}  out ${tokens(u.output).padStart(8)}  cache ${tokens(u.cacheRead)}/${tokens(u.cacheWrite)}  ${money(u.cost)}`;
  const calls = rows.reduce((n, r) => n + r.calls, 0);
  const out = [
    `Session cost: ${total.cost > 0 ? money(total.cost) : "unknown (no prices for these models)"} over ${calls} model call${calls === 1 ? "" : "s"} (cache: read/written tokens; "-": no price known)`,
  ];
  rows.forEach((r, i) => out.push(line(names[i]!, r.calls, r.usage)));
  if (rows.length > 1) out.push(line("total", calls, total));
  return out.join("\n");
}

const GLYPH: Record<ContextPartKind, string> = { system: "█", instructions: "▓", tools: "▒", extension: "▚", mcp: "▞", messages: "░" };
const BAR = 50;

export function contextText(rt: AgentRuntime): string {
  const r = rt.contextReport();
  // The bar is the model's window when it is known, else just what is used.
  const scale = Math.max(r.window, r.total, 1);
  const percent = (n: number): string => `${Math.round((n / scale) * 100)}%`;
  let bar = "";
  for (const p of r.parts) bar += GLYPH[p.kind].repeat(p.tokens > 0 ? Math.max(1, Math.round((p.tokens / scale) * BAR)) : 0);
  bar = bar.slice(0, BAR).padEnd(BAR, "·");
  const head =
    r.window > 0
      ? `Context: ≈${tokens(r.total)} of ${tokens(r.window)} tokens (${percent(r.total)})`
      : `Context: ≈${tokens(r.total)} tokens (the model's window is not known)`;
  const measured = r.measured > 0 ? ` · the last request measured ${tokens(r.measured)}` : "";
  const w = Math.max(...r.parts.map((p) => p.label.length));
  const rows = r.parts.map((p) => `  ${GLYPH[p.kind]} ${p.label.padEnd(w)}  ${tokens(p.tokens).padStart(9)}  ${percent(p.tokens).padStart(4)}`);
  return [`${head}${measured}`, `[${bar}]`, ...rows, "  (estimated at about 4 characters a token; /compact makes room)"].join("\n");
}

/** The built-in commands a one-shot run answers without the model; their text, or why they failed. */
export const ONE_SHOT_COMMANDS = ["cost", "context", "export", "doctor"] as const;
type OneShot = (typeof ONE_SHOT_COMMANDS)[number];

export function isOneShotCommand(name: string): name is OneShot {
  return (ONE_SHOT_COMMANDS as readonly string[]).includes(name.toLowerCase());
}

/** `ok` false with `report` true: the text is still the answer (a /doctor that found problems), else it is the error. */
export async function oneShotReport(rt: AgentRuntime, name: OneShot, args: string): Promise<{ ok: boolean; text: string; report?: boolean }> {
  switch (name.toLowerCase() as OneShot) {
    case "cost":
      return { ok: true, text: costText(rt) };
    case "context":
      return { ok: true, text: contextText(rt) };
    case "doctor": {
      const r = await rt.doctor(new AbortController().signal);
      return { ok: r.report.ok, text: r.text.replace(/\n+$/, ""), report: true };
    }
    case "export": {
      const e = exportArgs(args);
      if ("error" in e) return { ok: false, text: e.error };
      const r = rt.exportTranscript(e.format, e.dest);
      return r.ok ? { ok: true, text: r.path } : { ok: false, text: `export failed: ${r.error}` };
    }
  }
}

/** `/export [md|html] [path]`: the format (html when none is given) and the destination. */
export function exportArgs(args: string): { format: ExportFormat; dest?: string } | { error: string } {
  const trimmed = args.trim();
  const [first = ""] = trimmed.split(/\s+/);
  const format = first === "" ? "html" : first.toLowerCase();
  if (!isExportFormat(format)) return { error: `unknown export format "${first}" (/export ${EXPORT_FORMATS.join("|")} [path])` };
  const dest = trimmed.slice(first.length).trim();
  return dest === "" ? { format } : { format, dest };
}
