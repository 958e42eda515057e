// The everyday commands users of other agents reach for: /cost, /context, /status, /doctor, /copy,
// /rename, /add-dir and /export. Each asks the runtime and writes what it found into the chat.
import { EXPORT_FORMATS, isExportFormat, money, sandboxLabel, tokens, type ContextPartKind } from "../runtime/api.ts";
import type { Message } from "../agent/messages.ts";
import type { CommandContext } from "./command-context.ts";
import { copyWithTool, osc52 } from "./clipboard.ts";
import { ZOT_VERSION } from "../version.ts";

export function costCommand(ctx: CommandContext): void {
  const rows = ctx.runtime.modelUsage();
  const total = ctx.runtime.usage();
  if (rows.length === 0) {
    ctx.info("No model calls in this session yet: it has cost nothing.");
    return;
  }
  const names = rows.map((r) => (r.provider ? `${r.provider}/${r.model}` : r.model));
  const w = Math.max(5, ...names.map((n) => n.length));
  const line = (name: string, calls: number, u: typeof total): string =>
    `  ${name.padEnd(w)}  ${String(calls).padStart(5)} ${calls === 1 ? "call " : "calls"}  in ${tokens(u.input).padStart(9)}  out ${tokens(u.output).padStart(8)}  cache ${tokens(u.cacheRead)}/${tokens(u.cacheWrite)}  ${money(u.cost)}`;
  const calls = rows.reduce((n, r) => n + r.calls, 0);
  const out = [`Session cost: ${money(total.cost)} over ${calls} model call${calls === 1 ? "" : "s"} (cache: read/written tokens; "-": no price known)`];
  rows.forEach((r, i) => out.push(line(names[i]!, r.calls, r.usage)));
  if (rows.length > 1) out.push(line("total", calls, total));
  ctx.info(out.join("\n"));
}

const GLYPH: Record<ContextPartKind, string> = { system: "█", instructions: "▓", tools: "▒", extension: "▚", mcp: "▞", messages: "░" };
const BAR = 50;

export function contextCommand(ctx: CommandContext): void {
  const r = ctx.runtime.contextReport();
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
  ctx.info([`${head}${measured}`, `[${bar}]`, ...rows, "  (estimated at about 4 characters a token; /compact makes room)"].join("\n"));
}

export function statusCommand(ctx: CommandContext): void {
  const rt = ctx.runtime;
  const states = ctx.host.states();
  const running = states.filter((s) => s.status === "ready" || s.status === "auto_ready");
  const others = states.filter((s) => !running.includes(s));
  const { used, window } = rt.context();
  const jobs = rt.backgroundJobs().filter((j) => j.state === "running").length;
  const instructions = rt.instructionFiles();
  const row = (k: string, v: string): string => `  ${k.padEnd(13)}${v}`;
  const lines = [
    `zot ${ZOT_VERSION}`,
    row("directory", rt.cwd),
    row("session", rt.sessionPath === null ? "not saved (--no-session)" : `${rt.sessionPath}${rt.title ? ` ("${rt.title}")` : ""}`),
    row("messages", String(rt.messages().length)),
    row("model", `${rt.provider}/${rt.model} · thinking ${rt.reasoning ?? "off"}`),
    row("permissions", `${rt.mode}${rt.jail ? ` · jailed to ${rt.jail}` : ""}`),
    row("sandbox", `${sandboxLabel(rt.sandbox)} (${rt.sandbox.reason})`),
    row("context", window > 0 ? `${tokens(used)} of ${tokens(window)} tokens at the last request` : `${tokens(used)} tokens at the last request`),
    row("cost", money(rt.usage().cost)),
    row("instructions", instructions.length ? instructions.join(", ") : "none (no AGENTS.md or CLAUDE.md)"),
    row(
      "extensions",
      `${running.length} running${running.length ? ` (${running.map((s) => s.name).join(", ")})` : ""}${others.length ? `; ${others.map((s) => `${s.name} ${s.status.replace("_", " ")}`).join(", ")}` : ""}`,
    ),
    row("background", `${jobs} command${jobs === 1 ? "" : "s"} running (/ps)`),
  ];
  ctx.info(lines.join("\n"));
}

export async function doctorCommand(ctx: CommandContext): Promise<void> {
  await ctx.busyWhile("checking zot, the provider, extensions and MCP servers", async (signal) => {
    const r = await ctx.runtime.doctor(signal);
    if (signal.aborted) return ctx.status([{ text: "/doctor cancelled.", level: "info" }], 3000);
    ctx.info(r.text.replace(/\n+$/, ""), r.report.ok ? "info" : "warn");
  });
}

/** The text of the newest assistant message that has any. */
export function lastAnswer(messages: readonly Message[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant") continue;
    const text = m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
    if (text.trim() !== "") return text;
  }
  return null;
}

export function copyCommand(ctx: CommandContext): void {
  const text = lastAnswer(ctx.runtime.messages());
  if (text === null) {
    ctx.status([{ text: "Nothing to copy yet: no answer in this session.", level: "info" }], 3000);
    return;
  }
  ctx.terminalEscape(osc52(text));
  const tool = copyWithTool(text);
  const via = tool ? `with ${tool} and the terminal (OSC 52)` : "through the terminal (OSC 52; a terminal that ignores it needs wl-copy, xclip or pbcopy)";
  ctx.status([{ text: `Copied the last answer (${text.length} characters) to the clipboard ${via}.`, level: "success" }], 5000);
}

export function renameCommand(ctx: CommandContext, args: string): void {
  if (args.trim() === "") {
    const now = ctx.runtime.title;
    ctx.status([{ text: `${now ? `This session is "${now}". ` : "This session has no title. "}Give one: /rename <title>.`, level: "info" }], 5000);
    return;
  }
  const r = ctx.runtime.rename(args);
  if (r.ok) ctx.status([{ text: `Renamed this session "${ctx.runtime.title}".`, level: "success" }], 4000);
  else ctx.status([{ text: `${r.error[0]!.toUpperCase()}${r.error.slice(1)}.`, level: "error" }], 6000);
}

export function addDirCommand(ctx: CommandContext, args: string): void {
  const r = ctx.runtime.addDir(args);
  if (!r.ok) {
    ctx.status([{ text: `${r.error[0]!.toUpperCase()}${r.error.slice(1)}.`, level: "error" }], 6000);
    return;
  }
  const mode = ctx.runtime.sandbox.mode;
  if (mode === "off") ctx.status([{ text: `The sandbox is off: ${r.path} is writable already.`, level: "info" }], 5000);
  else
    ctx.status(
      [{ text: `Commands and file tools may now write ${r.path} (this session; --add-dir or config.json "sandbox" keeps it).`, level: "success" }],
      6000,
    );
}

const EXPORT_USAGE = `Usage: /export ${EXPORT_FORMATS.join("|")} [path] (default html, written to ~/Downloads)`;

export function exportCommand(ctx: CommandContext, args: string): void {
  const trimmed = args.trim();
  const [first = ""] = trimmed.split(/\s+/);
  const format = first === "" ? "html" : first.toLowerCase();
  if (!isExportFormat(format)) {
    ctx.status([{ text: `Unknown export format "${first}". ${EXPORT_USAGE}`, level: "error" }], 6000);
    return;
  }
  const dest = trimmed.slice(first.length).trim();
  const r = ctx.runtime.exportTranscript(format, dest === "" ? undefined : dest);
  if (r.ok) ctx.status([{ text: `Exported this session as ${format === "html" ? "HTML" : "Markdown"} to ${r.path}`, level: "success" }], 8000);
  else ctx.status([{ text: `Export failed: ${r.error}.`, level: "error" }], 8000);
}
