// Background commands: `bash` with "background": true hands its process here and returns at once.
// Each job keeps the tail of its output (stdout and stderr merged, as for any command) in a capped
// buffer with a read cursor, so `bash_output` returns only what is new and says how much was
// dropped; `bash_kill` and /ps stop the job's whole process group. Jobs live as long as this zot
// process: spawn.ts registers every group with the exit hook and the reaper, so none survives zot.
import type { Command } from "../sandbox/command.ts";
import { stringParam } from "./define.ts";

/** Output kept per job; older output is dropped (and counted) once a job has written more. */
export const JOB_KEEP_CHARS = 64 * 1024;
/** Time between SIGTERM and SIGKILL when a job is stopped. */
const KILL_GRACE_MS = 2000;

export type JobState = "running" | "exited" | "killed";

/** What a job looks like from outside (the tools, /ps, the `background_job` event). */
export type JobInfo = {
  id: string;
  command: string;
  cwd: string;
  pid: number;
  /** Epoch ms. */
  started: number;
  state: JobState;
  /** Set once the job is no longer running: its exit code, or the signal that ended it. */
  exitCode: number | null;
  signal: string | null;
  /** Characters written so far, dropped ones included. */
  written: number;
};

class Job {
  state: JobState = "running";
  exitCode: number | null = null;
  signal: string | null = null;
  /** Output from absolute character offset `start` on; `read` is the cursor of `bash_output`. */
  private buffer = "";
  private start = 0;
  private read = 0;
  private killing = false;
  readonly done: Promise<void>;
  readonly started = Date.now();

  constructor(
    readonly id: string,
    readonly command: string,
    readonly cwd: string,
    private readonly proc: Command,
    ended: (job: Job) => void,
  ) {
    const decoder = new TextDecoder();
    const reading = (async () => {
      for await (const value of proc.output) this.append(decoder.decode(value, { stream: true }));
      this.append(decoder.decode());
    })();
    this.done = (async () => {
      // What the shell left running in its group goes with it, as for a foreground command.
      const end = await proc.exited;
      await reading;
      if (end.error !== undefined) this.append(`\n[${end.error}]\n`);
      this.exitCode = end.code;
      this.signal = end.signal;
      this.state = this.killing ? "killed" : "exited";
      ended(this);
    })();
  }

  get pid(): number {
    return this.proc.pid;
  }

  private append(text: string): void {
    if (text === "") return;
    this.buffer += text;
    const over = this.buffer.length - JOB_KEEP_CHARS;
    if (over > 0) {
      this.buffer = this.buffer.slice(over);
      this.start += over;
    }
  }

  get written(): number {
    return this.start + this.buffer.length;
  }

  /** Output since the last call and how much of it was dropped before it could be read. */
  takeNew(): { text: string; dropped: number } {
    const dropped = Math.max(0, this.start - this.read);
    const text = this.buffer.slice(Math.max(0, this.read - this.start));
    this.read = this.written;
    return { text, dropped };
  }

  /** SIGTERM to the group, SIGKILL after the grace period; resolves once the job has ended. */
  async kill(): Promise<void> {
    if (this.state !== "running") return;
    this.killing = true;
    this.proc.kill("SIGTERM");
    const timer = setTimeout(() => this.proc.kill("SIGKILL"), KILL_GRACE_MS);
    await this.done;
    clearTimeout(timer);
  }

  info(): JobInfo {
    return {
      id: this.id,
      command: this.command,
      cwd: this.cwd,
      pid: this.pid,
      started: this.started,
      state: this.state,
      exitCode: this.exitCode,
      signal: this.signal,
      written: this.written,
    };
  }
}

const jobs = new Map<string, Job>();
const listeners = new Set<(job: JobInfo) => void>();
let counter = 0;

function changed(job: Job): void {
  const info = job.info();
  for (const l of listeners) l(info);
}

/** Called with a job when it starts and again when it ends. */
export function onJobChange(listener: (job: JobInfo) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Takes over a started command (src/agent/sandbox/spawn.ts), which kills what is left of its group once its shell has exited. */
export function startJob(command: string, cwd: string, proc: Command): JobInfo {
  const job = new Job(`bg${++counter}`, command, cwd, proc, changed);
  jobs.set(job.id, job);
  changed(job);
  return job.info();
}

export function listJobs(): JobInfo[] {
  return [...jobs.values()].map((j) => j.info());
}

function find(id: string): Job | string {
  const job = jobs.get(id.trim());
  if (job) return job;
  const ids = [...jobs.keys()];
  return `There is no background command "${id}" (${ids.length ? `known: ${ids.join(", ")}` : "none was started in this zot"}).`;
}

/** `bash_output`: the job's state and its output since the last read. */
export function readJob(id: string): { ok: true; info: JobInfo; text: string; dropped: number } | { ok: false; error: string } {
  const job = find(id);
  if (typeof job === "string") return { ok: false, error: job };
  return { ok: true, info: job.info(), ...job.takeNew() };
}

/** `bash_kill` and /ps: stops the job's process group; a job that already ended is reported as it is. */
export async function killJob(id: string): Promise<{ ok: true; info: JobInfo; wasRunning: boolean } | { ok: false; error: string }> {
  const job = find(id);
  if (typeof job === "string") return { ok: false, error: job };
  const wasRunning = job.state === "running";
  await job.kill();
  return { ok: true, info: job.info(), wasRunning };
}

/** Stops every running job (the runtime's close); the exit hook and the reaper cover the other exits. */
export async function stopJobs(): Promise<void> {
  await Promise.all([...jobs.values()].map((j) => j.kill()));
}

/** A few words for a job's state: `running`, `exited with code 0`, `killed (by SIGTERM)`. */
export function jobStatus(job: Pick<JobInfo, "state" | "exitCode" | "signal">): string {
  if (job.state === "running") return "running";
  const how = job.signal ? `by ${job.signal}` : `with code ${job.exitCode}`;
  return job.state === "killed" ? `killed (${how})` : `exited ${how}`;
}

/** The argument of bash_output and bash_kill. */
/** The `id` parameter of bash_output and bash_kill. */
export const jobIdParam = stringParam("The background command's id.", { nonEmpty: true, hint: '(the id bash returned, like "bg1")' });
