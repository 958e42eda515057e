// Test set-up for WebSocket extensions: a real server process listening on 127.0.0.1 and an
// extension directory whose manifest points zot at it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers/temp.ts";

export const WS_FIXTURES = resolve(import.meta.dir, "../fixtures/ws");
export const BUN = process.execPath;
const REPO = resolve(import.meta.dir, "../..");

/** Each way of writing a WebSocket extension in the fixtures, by the words the tests name it with. */
export const SERVER_KINDS = ["a plain Bun WebSocket server", "the TypeScript SDK under Bun", "the TypeScript SDK under Node", "the Python SDK"] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

/** How to start the fixture server of `kind` as extension NAME on PORT; Node runs the SDK bundle in `bundleDir`. */
export function serverCommand(kind: ServerKind, name: string, port: number, bundleDir = ""): { argv: string[]; env: Record<string, string> } {
  const args = [name, String(port)];
  switch (kind) {
    case "a plain Bun WebSocket server":
      return { argv: [BUN, join(WS_FIXTURES, "plain-server.ts"), ...args], env: {} };
    case "the TypeScript SDK under Bun":
      return { argv: [BUN, join(WS_FIXTURES, "sdk-server.mjs"), ...args], env: { ZOT_SDK: join(REPO, "sdk/typescript/src/index.ts") } };
    case "the TypeScript SDK under Node":
      return { argv: ["node", join(WS_FIXTURES, "sdk-server.mjs"), ...args], env: { ZOT_SDK: join(bundleDir, "index.js") } };
    case "the Python SDK":
      return { argv: ["python3", join(WS_FIXTURES, "sdk_server.py"), ...args], env: { ZOT_PY_SDK: join(REPO, "sdk/python") } };
  }
}

export type Server = { port: number; pid: number; proc: ReturnType<typeof Bun.spawn>; output: () => string; kill: () => Promise<void> };

/** Starts `argv` and waits for its "listening PORT" line (SDK servers print it to stderr, since stdout is theirs). */
export async function startServer(argv: string[], env: Record<string, string>): Promise<Server> {
  const proc = Bun.spawn(argv, { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  let out = "";
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) out += decoder.decode(chunk, { stream: true });
  };
  void pump(proc.stdout).catch(() => {});
  void pump(proc.stderr).catch(() => {});
  const deadline = Date.now() + 20_000;
  let port = 0;
  while (!port) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`${argv.join(" ")} did not report "listening PORT": ${out}`);
    }
    await Bun.sleep(10);
    port = Number(/listening (\d+)/.exec(out)?.[1] ?? 0);
  }
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
  const dir = join(tempDir("zot-ws-ext-"), name);
  mkdirSync(dir);
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, version: "1.0.0", transport: { type: "websocket", ...transport }, ...extra }));
  return dir;
}
