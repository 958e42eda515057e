// The `bash` tool: a shell command in its own process group with stdout and stderr merged, streamed
// to the UI, bounded by a timeout, and killed group-wide on timeout or abort (the whole tree, via
// taskkill, on Windows). Long output keeps its head and tail for the model and spills in full to a
// private file.
import { closeSync, openSync, readdirSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { randomHex } from "../../random.ts";
import { ensurePrivateDir, spillPath } from "../../platform/home.ts";
import { shellPath } from "../../platform/shell.ts";
import { sandboxDenial } from "../sandbox/denials.ts";
import { confinedArgv, revocation } from "../sandbox/status.ts";
import { spawnCommand } from "../sandbox/spawn.ts";
import type { Command } from "../sandbox/command.ts";
import type { SandboxPolicy } from "../sandbox/policy.ts";
import type { JsonObject } from "../../json.ts";
import type { ApprovalDetail } from "../events.ts";
import type { ToolContext, ToolOutput } from "../tool.ts";
import { errorText, stringArg, textResult } from "./common.ts";
import { defineTool, flagParam, positiveNumberParam, stringParam } from "./define.ts";
import { JOB_KEEP_CHARS, startJob } from "./background-jobs.ts";
import { onAbort } from "../../abort.ts";

const BASH_DEFAULT_TIMEOUT_S = 120;
const BASH_MAX_TIMEOUT_S = 600;
const BASH_KEEP_BYTES = 50 * 1024;
const BASH_KEEP_LINES = 2000;
const HEAD_LINES = 1000;
const TAIL_LINES = 1000;
const HEAD_BYTES = 25 * 1024;
const TAIL_BYTES = 25 * 1024;
/** Time between SIGTERM and SIGKILL when a command is stopped. */
const KILL_GRACE_MS = 2000;
/** A runaway command (`yes`) must not fill the disk: the spill file stops growing here. */
const SPILL_MAX_BYTES = 100 * 1024 * 1024;
/** Spill files left by a zot that could not clean up (kill -9) are removed once this old. */
const SPILL_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Spill files of this run: the model may read them until zot exits, then they go. */
const spillFiles = new Set<string>();
let spillHookInstalled = false;
function keepSpill(path: string): void {
  if (!spillHookInstalled) {
    spillHookInstalled = true;
    process.on("exit", () => {
      for (const p of spillFiles) unlinkQuietly(p);
    });
  }
  spillFiles.add(path);
}

/** `$ZOT_HOME/spill`, private, with spill files older than a day (from runs that died) removed. */
function spillDir(home: string): string {
  const dir = ensurePrivateDir(spillPath(home));
  const cutoff = Date.now() - SPILL_MAX_AGE_MS;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith("zot-bash-")) continue;
    const p = join(dir, name);
    try {
      if (statSync(p).mtimeMs < cutoff) unlinkSync(p);
    } catch {
      // Removed by another zot meanwhile.
    }
  }
  return dir;
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

const DESCRIPTION = `Run a shell command with /bin/sh -c in the working directory. stdout and stderr are merged in the order they were written.
Arguments: command, and optionally timeout in seconds (default ${BASH_DEFAULT_TIMEOUT_S}, maximum ${BASH_MAX_TIMEOUT_S}). On timeout the command and all its child processes are killed.
Output over ${BASH_KEEP_LINES} lines or ${BASH_KEEP_BYTES / 1024} KiB keeps the first ${HEAD_LINES} and last ${TAIL_LINES} lines (at most ${HEAD_BYTES / 1024} KiB each); the full output is saved to a file named in the truncation note, which you can read or grep until zot exits.
A non-zero exit code is reported and marks the result as an error. stdin is empty, so interactive programs won't wait for input.
Processes left behind with \`cmd &\` are stopped when the command finishes. For a server, a watcher or any long job, pass background: true instead: the call returns at once with an id (bg1, bg2 …); follow the output with bash_output and stop it with bash_kill. A background command has no timeout; it runs until it exits, is killed, or zot exits. The last ${JOB_KEEP_CHARS / 1024} Ki characters of its output are kept.`;

export const bashTool = defineTool({
  name: "bash",
  description: DESCRIPTION,
  params: {
    command: stringParam("The shell command to run.", { nonEmpty: true }),
    timeout: positiveNumberParam(
      `Timeout in seconds (default ${BASH_DEFAULT_TIMEOUT_S}, maximum ${BASH_MAX_TIMEOUT_S}).`,
      `seconds (at most ${BASH_MAX_TIMEOUT_S})`,
    ),
    background: flagParam("Run in the background and return at once with an id for bash_output and bash_kill."),
  },
  preview(args: JsonObject): string {
    const command = stringArg(args, "command") ?? "?";
    const first = command.split("\n", 1)[0] ?? "";
    const background = args.background === true || args.background === "true";
    return `$ ${first}${first.length < command.length ? " …" : ""}${background ? " &" : ""}`;
  },
  approval({ command }): ApprovalDetail {
    return { kind: "command", command };
  },
  async execute({ command, timeout, background }, ctx: ToolContext): Promise<ToolOutput> {
    if (ctx.signal.aborted) return textResult("Aborted before the command started.", true);
    if (background) return runBackground(command, ctx);
    const timeoutS = Math.min(timeout ?? BASH_DEFAULT_TIMEOUT_S, BASH_MAX_TIMEOUT_S);
    const inEditor = ctx.editor?.runCommand;
    return inEditor ? runInEditor(command, timeoutS, ctx, inEditor) : runCommand(command, timeoutS, ctx);
  },
});

/** Spawned exactly as a foreground command (same shell, group, environment, sandbox), then handed to the job table. */
async function runBackground(command: string, ctx: ToolContext): Promise<ToolOutput> {
  const proc = await launch(command, ctx.cwd, ctx.sandbox);
  if (typeof proc === "string") return textResult(proc, true);
  // Aborted while it started: the model would never learn the job's id, so nothing may be left running.
  if (ctx.signal.aborted) {
    proc.kill("SIGKILL");
    return textResult("Aborted while the command was starting; it was stopped.", true);
  }
  const job = startJob(command, ctx.cwd, proc);
  return textResult(
    `Started background command ${job.id} (pid ${proc.pid}). Read its output with bash_output {"id": "${job.id}"}; stop it with bash_kill {"id": "${job.id}"}.`,
  );
}

/**
 * The one way a command starts, foreground or background. The shell points its stderr at the
 * stdout pipe, so both streams share one pipe and keep their order, then evals the command: a
 * syntax error in it lands on that pipe too, and line numbers in messages are the command's own
 * (the shell adds "eval: " to its own messages). `set --` empties the positional parameters the
 * command arrived in, and $0 is /bin/sh as for `sh -c`. One exec instead of exec-ing a second shell
 * saves ~0.6 ms a call (bench/RESULTS.md, "zot against the Go zot").
 */
async function launch(command: string, cwd: string, sandbox: SandboxPolicy | undefined): Promise<Command | string> {
  const shell = shellPath(process.env, process.platform);
  if (!shell.ok) return shell.error;
  const proc = await spawnCommand(shell.path, SCRIPT, ["/bin/sh", command], cwd, sandbox);
  return typeof proc === "string" ? `Could not start ${shell.path} in ${cwd} (${proc}).` : proc;
}

const SCRIPT = 'exec 2>&1; eval "set --; $1"';

/** The same command for an editor's terminal to run. */
function shellArgv(shell: string, command: string): string[] {
  return [shell, "-c", SCRIPT, "/bin/sh", command];
}

async function runCommand(command: string, timeoutS: number, ctx: ToolContext): Promise<ToolOutput> {
  const proc = await launch(command, ctx.cwd, ctx.sandbox);
  if (typeof proc === "string") return textResult(proc, true);
  const out = new Output(ctx.home);
  let stopped: "timeout" | "abort" | null = null;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const stop = (why: "timeout" | "abort"): void => {
    if (stopped) return;
    stopped = why;
    proc.kill("SIGTERM");
    killTimer = setTimeout(() => proc.kill("SIGKILL"), KILL_GRACE_MS);
  };
  const timer = setTimeout(() => stop("timeout"), timeoutS * 1000);
  // The call may have been aborted while the command was starting: then it is stopped at once.
  const unlisten = onAbort(ctx.signal, () => stop("abort"));

  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const value of proc.output) {
      const text = decoder.decode(value, { stream: true });
      out.add(value, text);
      if (text !== "") ctx.progress(text);
    }
    const rest = decoder.decode();
    if (rest !== "") out.add(new Uint8Array(0), rest);
  })();

  // The group is killed once the shell exits, so nothing outlives the call and no background child
  // holds the output open for longer than a short drain.
  const end = await proc.exited;
  await reading;
  clearTimeout(timer);
  unlisten();
  if (killTimer) clearTimeout(killTimer);

  const { text, note } = out.finish();
  const parts = [text === "" ? "(no output)" : text];
  if (note) parts.push(note);
  if (!end.drained) parts.push("[A process that left the command's process group still holds its output open; output after the command exited is not shown.]");
  let isError = true;
  if (end.error !== undefined) parts.push(`[${end.error}]`);
  else if (stopped === "timeout") parts.push(`[Timed out after ${timeoutS} s; the command and its child processes were killed.]`);
  else if (stopped === "abort") parts.push("[Aborted; the command and its child processes were killed.]");
  else if (end.signal) parts.push(`[Killed by ${end.signal}.]`);
  else if (end.code !== 0) parts.push(`[Exit code ${end.code}]`);
  else isError = false;
  const denial = sandboxDenial(ctx.sandbox, command, text, ctx.cwd);
  if (denial === null) return textResult(parts.join("\n\n"), isError);
  parts.push(`[${denial.sentence}]`);
  return { ...textResult(parts.join("\n\n"), isError), sandboxDenial: denial.sentence };
}

/**
 * A foreground command in a terminal the editor shows (ACP's terminal methods): the same shell line,
 * confined by the same sandbox, with the same timeout; the editor runs it and keeps its output.
 */
async function runInEditor(
  command: string,
  timeoutS: number,
  ctx: ToolContext,
  run: NonNullable<NonNullable<ToolContext["editor"]>["runCommand"]>,
): Promise<ToolOutput> {
  const shell = shellPath(process.env, process.platform);
  if (!shell.ok) return textResult(shell.error, true);
  const refused = await revocation(ctx.sandbox);
  if (refused) return textResult(refused, true);
  const argv = confinedArgv(ctx.sandbox, shellArgv(shell.path, command));
  const timeout = AbortSignal.timeout(timeoutS * 1000);
  const r = await run({ callId: ctx.callId ?? "", argv, cwd: ctx.cwd, signal: AbortSignal.any([ctx.signal, timeout]) });
  if (!r.ok) return textResult(`Could not run the command in the editor's terminal (${r.error}).`, true);
  const out = new Output(ctx.home);
  out.add(Buffer.from(r.output, "utf8"), r.output);
  const { text, note } = out.finish();
  const parts = [text === "" ? "(no output)" : text];
  if (note) parts.push(note);
  if (r.truncated) parts.push("[The editor kept only the end of the output.]");
  let isError = true;
  if (timeout.aborted && !ctx.signal.aborted) parts.push(`[Timed out after ${timeoutS} s; the command was killed.]`);
  else if (ctx.signal.aborted) parts.push("[Aborted; the command was killed.]");
  else if (r.signal) parts.push(`[Killed by ${r.signal}.]`);
  else if (r.exitCode !== 0) parts.push(`[Exit code ${r.exitCode ?? "unknown"}]`);
  else isError = false;
  const denial = sandboxDenial(ctx.sandbox, command, text, ctx.cwd);
  if (denial === null) return textResult(parts.join("\n\n"), isError);
  parts.push(`[${denial.sentence}]`);
  return { ...textResult(parts.join("\n\n"), isError), sandboxDenial: denial.sentence };
}

/** Holds all output while it is small; past the limit, keeps head and tail and writes everything to a spill file. */
class Output {
  private small = "";
  private rawSmall: Uint8Array[] = [];
  private head = "";
  private tail = "";
  private spill: { fd: number; path: string } | null = null;
  private spillError: string | null = null;
  private spilled = 0;
  private bytes = 0;
  private newlines = 0;
  private lastChar = "";

  constructor(private readonly home: string) {}

  add(raw: Uint8Array, text: string): void {
    this.bytes += raw.length;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.newlines++;
    this.lastChar = text.at(-1) ?? this.lastChar;
    if (this.spill || this.spillError !== null) {
      this.writeSpill(raw);
      this.tail += text;
      if (this.tail.length > 4 * TAIL_BYTES + TAIL_LINES * 2) this.tail = this.tail.slice(-(2 * TAIL_BYTES + TAIL_LINES * 2));
      return;
    }
    this.small += text;
    this.rawSmall.push(raw);
    if (this.bytes > BASH_KEEP_BYTES || this.lines() > BASH_KEEP_LINES) this.startSpill();
  }

  private lines(): number {
    return this.lastChar === "\n" || this.lastChar === "" ? this.newlines : this.newlines + 1;
  }

  private startSpill(): void {
    this.head = this.small.slice(0, 4 * HEAD_BYTES);
    this.tail = this.small;
    this.small = "";
    try {
      const path = join(spillDir(this.home), `zot-bash-${randomHex(6)}.log`);
      this.spill = { fd: openSync(path, "wx", 0o600), path };
      keepSpill(path);
    } catch (err) {
      this.spillError = errorText(err);
    }
    for (const raw of this.rawSmall) this.writeSpill(raw);
    this.rawSmall = [];
  }

  private writeSpill(raw: Uint8Array): void {
    if (!this.spill || raw.length === 0 || this.spilled >= SPILL_MAX_BYTES) return;
    const part = raw.subarray(0, SPILL_MAX_BYTES - this.spilled);
    try {
      let off = 0;
      while (off < part.length) off += writeSync(this.spill.fd, part, off, part.length - off);
      this.spilled += part.length;
    } catch (err) {
      this.spillError = errorText(err);
      closeSync(this.spill.fd);
      this.spill = null;
    }
  }

  finish(): { text: string; note?: string } {
    if (!this.spill && this.spillError === null) return { text: trimFinalNewline(this.small) };
    const path = this.spill?.path;
    if (this.spill) closeSync(this.spill.fd);
    this.spill = null;
    const head = takeHead(this.head);
    const tail = takeTail(this.tail);
    const total = this.lines();
    const omitted = Math.max(0, total - head.lines - tail.lines);
    const where = !path
      ? `the full output could not be saved (${this.spillError})`
      : this.spilled < this.bytes
        ? `the first ${SPILL_MAX_BYTES / (1024 * 1024)} MiB of the output are in ${path}`
        : `the full output is in ${path}`;
    const note = `[Output truncated: ${total} lines (${(this.bytes / 1024).toFixed(1)} KiB); showing the first ${head.lines} and last ${tail.lines} lines, ${omitted} lines omitted; ${where}.]`;
    return { text: `${trimFinalNewline(head.text)}\n\n… ${omitted} lines omitted …\n\n${trimFinalNewline(tail.text)}`, note };
  }
}

function takeHead(text: string): { text: string; lines: number } {
  const lines = text.split("\n");
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines.slice(0, HEAD_LINES)) {
    const cost = Buffer.byteLength(line) + 1;
    if (bytes + cost > HEAD_BYTES) {
      if (kept.length === 0) kept.push(cutToBytes(line, HEAD_BYTES));
      break;
    }
    bytes += cost;
    kept.push(line);
  }
  return { text: kept.join("\n"), lines: kept.length };
}

function takeTail(text: string): { text: string; lines: number } {
  const lines = trimFinalNewline(text).split("\n");
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines.reverse()) {
    if (kept.length >= TAIL_LINES) break;
    const cost = Buffer.byteLength(line) + 1;
    if (bytes + cost > TAIL_BYTES) {
      if (kept.length === 0) kept.push(cutToBytes(line, TAIL_BYTES, true));
      break;
    }
    bytes += cost;
    kept.push(line);
  }
  return { text: kept.reverse().join("\n"), lines: kept.length };
}

function cutToBytes(line: string, max: number, fromEnd = false): string {
  const buf = Buffer.from(line);
  const part = fromEnd ? buf.subarray(buf.length - max) : buf.subarray(0, max);
  return part.toString("utf8");
}

function trimFinalNewline(s: string): string {
  return s.endsWith("\n") ? s.slice(0, -1) : s;
}
