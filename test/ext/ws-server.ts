// Test set-up for WebSocket extensions: a real server process listening on 127.0.0.1 and an
// extension directory whose manifest points zot at it.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const WS_FIXTURES = resolve(import.meta.dir, "../fixtures/ws");
export const BUN = process.execPath;

export type Server = { port: number; pid: number; proc: ReturnType<typeof Bun.spawn>; output: () => string; kill: () => Promise<void> };

/** Starts `argv` and waits for its "listening PORT" line on stdout. */
export async function startServer(argv: string[], env: Record<string, string>): Promise<Server> {
  const proc = Bun.spawn(argv, { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  let out = "";
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + 20_000;
  let port = 0;
  while (!port) {
    const read = await Promise.race([reader.read(), Bun.sleep(Math.max(0, deadline - Date.now())).then(() => null)]);
    if (!read || read.done) {
      proc.kill("SIGKILL");
      throw new Error(`${argv.join(" ")} did not report "listening PORT": ${out}${await new Response(proc.stderr).text()}`);
    }
    out += decoder.decode(read.value, { stream: true });
    port = Number(/listening (\d+)/.exec(out)?.[1] ?? 0);
  }
  void (async () => {
    for (;;) {
      const r = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (r.done) return;
      out += decoder.decode(r.value, { stream: true });
    }
  })();
  return {
    port,
    pid: proc.pid,
    proc,
    output: () => out,
    kill: async () => {
      proc.kill("SIGKILL");
      await proc.exited;
    },
  };
}

/** A directory holding `extension.json` for a WebSocket extension; returns its path. */
export function wsExtension(name: string, transport: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const dir = join(mkdtempSync(join(tmpdir(), "zot-ws-ext-")), name);
  mkdirSync(dir);
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, version: "1.0.0", transport: { type: "websocket", ...transport }, ...extra }));
  return dir;
}
