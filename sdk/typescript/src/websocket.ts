// WebSocket mode's server: zot connects to the extension, which listens on a loopback port. Under
// Bun it is Bun.serve's WebSocket support; under Node (which has no WebSocket server) a minimal
// RFC 6455 server over node:http's "upgrade" event: text frames, client masking, fragments,
// ping/pong and close. Both check the bearer token before the upgrade and answer 401 otherwise.
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

export type Peer = { send(text: string): void; close(code: number, reason: string): void };

export type PeerHandlers = {
  /** When false, a new connection is refused with 409 (one zot at a time). */
  accepting(): boolean;
  open(peer: Peer): void;
  message(peer: Peer, text: string): void;
  closed(peer: Peer): void;
};

export type ServerOptions = { hostname: string; port: number; token: string; maxMessageBytes: number };
export type Listening = { port: number; close(): Promise<void> };

const GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

type BunLike = {
  serve(options: unknown): { port: number; stop(force?: boolean): void | Promise<void> };
};
type BunSocket = { data: { peer: Peer }; send(text: string): void; close(code?: number, reason?: string): void };

/** `Authorization: Bearer <token>` with the expected token, compared in constant time. */
export function authorized(header: string | null | undefined, token: string): boolean {
  const m = /^Bearer (.+)$/.exec(header ?? "");
  if (!m) return false;
  const got = Buffer.from(m[1] ?? "");
  const want = Buffer.from(token);
  return got.length === want.length && timingSafeEqual(got, want);
}

export function listen(opts: ServerOptions, h: PeerHandlers): Promise<Listening> {
  const bun = (globalThis as { Bun?: BunLike }).Bun;
  return bun ? listenBun(bun, opts, h) : listenNode(opts, h);
}

async function listenBun(bun: BunLike, opts: ServerOptions, h: PeerHandlers): Promise<Listening> {
  const server = bun.serve({
    hostname: opts.hostname,
    port: opts.port,
    fetch(req: Request, srv: { upgrade(req: Request, o: unknown): boolean }) {
      const refused = refusal(req.headers.get("authorization"), opts.token, h);
      if (refused) return new Response(refused.body, { status: refused.status });
      if (srv.upgrade(req, { data: { peer: null } })) return undefined;
      return new Response("zot extensions speak WebSocket here\n", { status: 426 });
    },
    websocket: {
      maxPayloadLength: opts.maxMessageBytes,
      open(ws: BunSocket) {
        ws.data.peer = { send: (text) => ws.send(text), close: (code, reason) => ws.close(code, reason) };
        h.open(ws.data.peer);
      },
      message(ws: BunSocket, data: string | Uint8Array) {
        h.message(ws.data.peer, typeof data === "string" ? data : new TextDecoder().decode(data));
      },
      close(ws: BunSocket) {
        h.closed(ws.data.peer);
      },
    },
  });
  return { port: server.port, close: async () => void (await server.stop(true)) };
}

function refusal(auth: string | null | undefined, token: string, h: PeerHandlers): { status: number; body: string } | null {
  if (!authorized(auth, token))
    return { status: 401, body: "a wrong or missing bearer token; zot sends the one in the variable its manifest names in transport.token_env\n" };
  if (!h.accepting()) return { status: 409, body: "another zot is connected to this extension\n" };
  return null;
}

function listenNode(opts: ServerOptions, h: PeerHandlers): Promise<Listening> {
  const server = createServer((_req, res) => {
    res.writeHead(426, { "content-type": "text/plain" }).end("zot extensions speak WebSocket here\n");
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex) => {
    const key = req.headers["sec-websocket-key"];
    const refused =
      typeof key !== "string" || req.headers["sec-websocket-version"] !== "13"
        ? { status: 400, body: "not a WebSocket version 13 handshake\n" }
        : refusal(req.headers.authorization, opts.token, h);
    if (refused) {
      const reason = refused.status === 401 ? "Unauthorized" : refused.status === 409 ? "Conflict" : "Bad Request";
      socket.end(
        `HTTP/1.1 ${refused.status} ${reason}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(refused.body)}\r\nconnection: close\r\n\r\n${refused.body}`,
      );
      return;
    }
    const accept = createHash("sha1")
      .update(key + GUID)
      .digest("base64");
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`);
    serveSocket(socket, opts.maxMessageBytes, h);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.hostname, () => {
      const address = server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : opts.port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Frames of one accepted connection (RFC 6455 §5): the client masks, the server does not. */
function serveSocket(socket: Duplex, maxMessageBytes: number, h: PeerHandlers): void {
  let buffer: Buffer = Buffer.alloc(0);
  let parts: Buffer[] = [];
  let partsBytes = 0;
  let closed = false;
  const frame = (opcode: number, payload: Buffer) => {
    const len = payload.length;
    const head = len < 126 ? Buffer.from([0x80 | opcode, len]) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
    if (len >= 126 && len < 65536) {
      head[0] = 0x80 | opcode;
      head[1] = 126;
      head.writeUInt16BE(len, 2);
    } else if (len >= 65536) {
      head[0] = 0x80 | opcode;
      head[1] = 127;
      head.writeBigUInt64BE(BigInt(len), 2);
    }
    socket.write(Buffer.concat([head, payload]));
  };
  const close = (code: number, reason: string) => {
    if (closed) return;
    closed = true;
    const body = Buffer.alloc(2 + Buffer.byteLength(reason));
    body.writeUInt16BE(code, 0);
    body.write(reason, 2);
    frame(0x8, body);
    socket.end();
    h.closed(peer);
  };
  const peer: Peer = {
    send: (text) => {
      if (!closed) frame(0x1, Buffer.from(text));
    },
    close,
  };
  socket.on("data", (chunk: Buffer) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    while (!closed) {
      if (buffer.length < 2) return;
      const b0 = buffer.readUInt8(0);
      const b1 = buffer.readUInt8(1);
      const fin = (b0 & 0x80) !== 0;
      const opcode = b0 & 0x0f;
      const masked = (b1 & 0x80) !== 0;
      let len = b1 & 0x7f;
      let at = 2;
      if (len === 126) {
        if (buffer.length < 4) return;
        len = buffer.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (buffer.length < 10) return;
        const big = buffer.readBigUInt64BE(2);
        if (big > BigInt(maxMessageBytes)) return close(1009, "message too big");
        len = Number(big);
        at = 10;
      }
      if (!masked) return close(1002, "client frames must be masked");
      if (len > maxMessageBytes || partsBytes + len > maxMessageBytes) return close(1009, "message too big");
      if (buffer.length < at + 4 + len) return;
      const mask = buffer.subarray(at, at + 4);
      const payload = Buffer.from(buffer.subarray(at + 4, at + 4 + len));
      for (let i = 0; i < payload.length; i++) payload.writeUInt8(payload.readUInt8(i) ^ mask.readUInt8(i & 3), i);
      buffer = buffer.subarray(at + 4 + len);
      if (opcode === 0x8) return close(payload.length >= 2 ? payload.readUInt16BE(0) : 1000, "");
      if (opcode === 0x9) frame(0xa, payload);
      else if (opcode === 0x1 || opcode === 0x2 || opcode === 0x0) {
        parts.push(payload);
        partsBytes += payload.length;
        if (fin) {
          const text = Buffer.concat(parts).toString("utf8");
          parts = [];
          partsBytes = 0;
          h.message(peer, text);
        }
      }
    }
  });
  const gone = () => {
    if (closed) return;
    closed = true;
    h.closed(peer);
  };
  socket.on("error", gone);
  socket.on("close", gone);
  // An upgraded socket stays half-open after the client's FIN; the client is gone all the same.
  socket.on("end", () => {
    gone();
    socket.end();
  });
  h.open(peer);
}
