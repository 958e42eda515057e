// `zot mcp serve` over stdio: one JSON-RPC message per line on stdin and stdout, requests handled
// concurrently. The end of stdin is the client going away: every running call stops (its process
// group with it) before this resolves, so no process outlives the session.
import { LineReader } from "../../ext/connection/lines.ts";
import type { JsonObject } from "../../protocol.ts";
import type { Runtime } from "../runtime.ts";
import { McpServer, PARSE_ERROR } from "./server.ts";
import type { ServedTools } from "./tools.ts";

export type StdioOptions = {
  input: AsyncIterable<Uint8Array>;
  write: (text: string) => void;
  /** Diagnostics (stderr): stdout is the protocol's. */
  warn: (text: string) => void;
};

/** `done`: stdin ended and every call stopped. `stop`: stops every call now (a signal), resolving once they ended. */
export function serveStdio(runtime: Runtime, tools: ServedTools, opts: StdioOptions): { done: Promise<void>; stop(): Promise<void> } {
  const send = (msg: JsonObject) => opts.write(`${JSON.stringify(msg)}\n`);
  const server = new McpServer(runtime, tools, send);
  const channel = { send };
  const unhook = watchHost(runtime, server);
  const reader = new LineReader({
    onLine: (line) => {
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        send({
          jsonrpc: "2.0",
          id: null,
          error: {
            code: PARSE_ERROR,
            message: `zot's MCP server got a line that is not JSON (${JSON.stringify(line.slice(0, 80))}); send one JSON-RPC message per line`,
          },
        });
        return;
      }
      void server.handle(raw, channel).then((reply) => {
        if (reply) send(reply);
      });
    },
    onOversize: (bytes) => opts.warn(`zot mcp serve: dropped an input line of ${bytes} bytes (over the line limit)`),
  });
  const stop = async () => {
    unhook();
    server.stopAll();
    await server.settled();
  };
  const done = (async () => {
    try {
      for await (const chunk of opts.input) reader.push(chunk);
    } finally {
      await stop();
    }
  })();
  return { done, stop };
}

/** What the host tells a served zot: tool list changes, and extensions' notes as log messages. */
export function watchHost(runtime: Runtime, server: McpServer): () => void {
  return runtime.onIntent((intent) => {
    if (intent.kind === "registry_changed") server.toolsChanged();
    else if (intent.kind === "notify")
      server.log(intent.level === "error" ? "error" : intent.level === "warn" ? "warning" : "info", intent.extension, intent.message);
    else if (intent.kind === "extension_exited") server.log("warning", intent.extension, intent.message);
  });
}
