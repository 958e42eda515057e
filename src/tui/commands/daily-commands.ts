// The everyday commands users of other agents reach for: /cost, /context, /status, /doctor, /copy,
// /rename, /add-dir and /export. Each asks the runtime and writes what it found into the chat.
import { money, sandboxLabel, tokens } from "../../runtime/api.ts";
import { contextText, costText, exportArgs } from "../../modes/reports.ts";
import type { Message } from "../../agent/messages.ts";
import type { CommandContext } from "./command-context.ts";
import { copyWithTool, osc52 } from "../terminal/clipboard.ts";
import { ZOT_VERSION } from "../../version.ts";

export function costCommand(ctx: CommandContext): void {
  ctx.info(costText(ctx.runtime));
}

export function contextCommand(ctx: CommandContext): void {
  ctx.info(contextText(ctx.runtime));
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
    row("sandbox", `${sandboxLabel(rt.sandbox).replace(/^sandbox:? /, "")} (${rt.sandbox.reason})`),
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

export function exportCommand(ctx: CommandContext, args: string): void {
  const e = exportArgs(args);
  if ("error" in e) {
    ctx.status([{ text: `${e.error[0]!.toUpperCase()}${e.error.slice(1)}.`, level: "error" }], 6000);
    return;
  }
  const r = ctx.runtime.exportTranscript(e.format, e.dest);
  if (r.ok) ctx.status([{ text: `Exported this session as ${e.format === "html" ? "HTML" : "Markdown"} to ${r.path}`, level: "success" }], 8000);
  else ctx.status([{ text: `Export failed: ${r.error}.`, level: "error" }], 8000);
}
