// The WebSocket transport: the extension is a server that already runs in another process; zot
// connects with Bun's WebSocket client, sends the token as a bearer header, and exchanges one frame
// per text message. zot did not start that process, so it has no exit status, no stderr and no
// sandbox: a closed connection is its exit, and the log holds only zot's own lines.
import type { ExtensionLog } from "./log.ts";
import type { TreeSignal } from "../../platform/process-tree.ts";
import type { EndedWhen, Opened, Transport, TransportHooks, TransportTerms } from "./transport.ts";
import type { WebSocketTarget } from "./websocket-target.ts";

export type WebSocketOptions = {
  target: WebSocketTarget;
  /** zot's environment, where the token is read from. */
  env: Record<string, string | undefined>;
  log: ExtensionLog;
  /** Told of the token before it is sent. */
  onSecret?: (value: string) => void;
  maxQueueBytes: number;
  maxLineBytes: number;
  hooks: TransportHooks;
};

/** Close codes (RFC 6455 §7.4.1): normal closure, and "going away" when zot asks the extension to stop. */
const CLOSE_NORMAL = 1000;
const CLOSE_GOING_AWAY = 1001;
/** What Bun reports for a connection that was dropped or never made. */
const CLOSE_ABNORMAL = 1006;

export const WEBSOCKET_TERMS: TransportTerms = {
  who: "extension",
  unit: "WebSocket message",
  unitFrom: "WebSocket message",
  input: "WebSocket messages",
  firstHint: "(one JSON frame per text message)",
};

export function openWebSocket(o: WebSocketOptions): Opened {
  const { url, tokenEnv } = o.target;
  const headers: Record<string, string> = {};
  if (tokenEnv !== null) {
    const token = o.env[tokenEnv];
    if (!token)
      return {
        ok: false,
        error: `the variable ${tokenEnv} named by "transport.token_env" is not set in zot's environment; export the token the extension expects, then restart zot`,
      };
    o.onSecret?.(token);
    headers.Authorization = `Bearer ${token}`;
  }
  o.log.line(`connecting to ${url}; it runs outside zot, so zot cannot sandbox it`);
  let ws: WebSocket;
  try {
    ws = new WebSocket(url, { headers });
  } catch (e) {
    return { ok: false, error: `cannot connect to ${url}: ${(e as Error).message}` };
  }
  let opened = false;
  let closed = false;
  let ending = false;
  let dropped = false;
  let lastError = "";
  let why = "";
  const early: string[] = [];
  const finish = (code: number, reason: string) => {
    if (closed) return;
    closed = true;
    why = opened ? closeWhy(code, reason) : connectWhy(lastError);
    o.hooks.onInputClosed();
    o.hooks.onExit({ code, signal: null });
  };
  ws.onopen = () => {
    opened = true;
    o.log.line(`connected to ${url}`);
    for (const text of early.splice(0)) ws.send(text);
    if (ending) ws.close(CLOSE_NORMAL, "zot has nothing more to send");
  };
  ws.onmessage = (e: MessageEvent) => {
    const text = typeof e.data === "string" ? e.data : new TextDecoder().decode(e.data as ArrayBuffer);
    const bytes = typeof e.data === "string" ? Buffer.byteLength(text) : (e.data as ArrayBuffer).byteLength;
    if (bytes > o.maxLineBytes) return o.hooks.onOversize(bytes);
    if (text.trim() !== "") o.hooks.onLine(text.trim());
  };
  ws.onerror = (e: Event) => {
    lastError = (e as ErrorEvent).message ?? "";
  };
  ws.onclose = (e: CloseEvent) => finish(e.code, e.reason);
  const transport: Transport = {
    send(text) {
      if (closed || dropped) return;
      if (!opened) {
        early.push(text);
        return;
      }
      ws.send(text);
      if (ws.bufferedAmount > o.maxQueueBytes) {
        dropped = true;
        o.hooks.onHung(ws.bufferedAmount);
      }
    },
    // A WebSocket cannot be half-closed: after `shutdown` the extension closes it (the SDKs do after
    // shutdown_ack); one that does not is closed by the host's SIGTERM step.
    end() {
      ending = true;
      if (!opened) ws.close(CLOSE_NORMAL, "zot is stopping");
    },
    drop() {
      dropped = true;
      early.length = 0;
    },
    signal(sig: TreeSignal) {
      if (closed) return;
      if (sig === "SIGTERM") return ws.close(CLOSE_GOING_AWAY, "zot is stopping");
      ws.terminate();
      finish(CLOSE_ABNORMAL, "closed by zot");
    },
    helloHint() {
      return opened
        ? "it must send a hello frame as soon as zot connects"
        : `the connection to ${url} did not open; check that the extension is listening there`;
    },
    ended(_exit, when: EndedWhen) {
      if (!opened) return `could not connect to ${url}: ${why}`;
      const how = `closed the WebSocket connection${when === "before hello" ? " before hello" : ""} (${why})`;
      return when === "during registration" ? `${how} during registration` : how;
    },
  };
  return { ok: true, transport };
}

function closeWhy(code: number, reason: string): string {
  return `code ${code}${reason ? `: ${JSON.stringify(reason)}` : ""}`;
}

/** Bun reports a failed upgrade as "… Expected 101 status code: 401", a refused one as "Failed to connect". */
function connectWhy(error: string): string {
  const status = /Expected 101 status code: (\d{3})/.exec(error)?.[1];
  if (status === "401" || status === "403")
    return `the extension refused zot's token (HTTP ${status}); set the variable named by "transport.token_env" to the token the extension expects`;
  if (status) return `the server answered HTTP ${status} instead of accepting a WebSocket; check "transport.url"`;
  if (/failed to connect|ECONNREFUSED/i.test(error)) return "nothing accepted the connection; start the extension first, then run /reload-ext";
  return error ? error.replace(/^WebSocket connection to '[^']*' failed: /, "") : "the connection closed before it opened";
}
