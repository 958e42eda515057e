// How a command's output is read to its end, the same for a command zot spawns itself and for one
// the confined command server spawns: the pipe is read until the shell exits; then what the shell
// left running in its group is killed, and the pipe gets a short while to close, since a process
// that left the group on purpose (setsid) may still hold it open.

/** After the shell exits, how long a pipe kept open by an escaped (setsid) process may delay the result. */
const DRAIN_MS = 500;

export type ShellExit = { code: number | null; signal: string | null; drained: boolean };

type Shell = { stdout: ReadableStream<Uint8Array>; exited: Promise<number>; exitCode: number | null; signalCode: string | number | null };

/** `onChunk` gets every chunk of `proc`'s stdout; `afterExit` runs once the shell has exited (it kills the group). */
export async function readToExit(proc: Shell, onChunk: (bytes: Uint8Array) => unknown, afterExit: () => void): Promise<ShellExit> {
  const reader = proc.stdout.getReader();
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      await onChunk(value);
    }
  })().catch(() => undefined);
  await proc.exited;
  afterExit();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const drained = await Promise.race([reading.then(() => true), new Promise<boolean>((res) => (timer = setTimeout(() => res(false), DRAIN_MS)))]);
  clearTimeout(timer);
  if (!drained) await reader.cancel().catch(() => undefined);
  return { code: proc.exitCode, signal: proc.signalCode === null ? null : String(proc.signalCode), drained };
}
