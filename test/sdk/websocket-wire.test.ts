// The SDKs' WebSocket servers at the byte level, with a raw RFC 6455 client over a TCP socket: the
// accept key, masking, fragments, ping/pong, 16- and 64-bit lengths, close, 401 and 409. zot's own
// client (Bun's) never fragments or pings, so these paths are checked here.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import { bundle } from "../../sdk/typescript/build.ts";
import { serverCommand, startServer, type Server, type ServerKind } from "../ext/ws-server.ts";
import { waitFor } from "../helpers/wait.ts";
import { tempDir } from "../helpers/temp.ts";

const TOKEN = "wire-token";
let bundleDir = "";
const servers: Server[] = [];

beforeAll(async () => {
  bundleDir = tempDir("zot-ws-wire-");
  const failure = await bundle(bundleDir);
  if (failure) throw new Error(failure);
});
afterAll(async () => {
  for (const s of servers) await s.kill();
});

type Frame = { fin: boolean; opcode: number; payload: Buffer };

/** A WebSocket client that does everything by hand, so every byte on the wire is the test's choice. */
class RawClient {
  private buffer = Buffer.alloc(0);
  readonly frames: Frame[] = [];
  status = "";
  accept = "";
  ended = false;
  private constructor(private readonly socket: Socket) {}

  static async open(port: number, token: string): Promise<{ client: RawClient; key: string }> {
    const socket = connect(port, "127.0.0.1");
    await new Promise<void>((r) => socket.once("connect", () => r()));
    const client = new RawClient(socket);
    const key = randomBytes(16).toString("base64");
    let head = "";
    let upgraded = false;
    socket.on("data", (chunk: Buffer) => {
      if (!upgraded) {
        head += chunk.toString("latin1");
        const end = head.indexOf("\r\n\r\n");
        if (end < 0) return;
        upgraded = true;
        client.status = head.slice(0, head.indexOf("\r\n"));
        client.accept = /sec-websocket-accept: *(\S+)/i.exec(head.slice(0, end))?.[1] ?? "";
        chunk = Buffer.from(head.slice(end + 4), "latin1");
      }
      client.buffer = Buffer.concat([client.buffer, chunk]);
      client.parse();
    });
    socket.on("close", () => (client.ended = true));
    socket.write(
      `GET /zot HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${token}\r\n\r\n`,
    );
    await waitFor(() => client.status || client.ended);
    return { client, key };
  }

  private parse(): void {
    for (;;) {
      const b = this.buffer;
      if (b.length < 2) return;
      let len = b[1]! & 0x7f;
      let at = 2;
      if (len === 126) {
        if (b.length < 4) return;
        len = b.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (b.length < 10) return;
        len = Number(b.readBigUInt64BE(2));
        at = 10;
      }
      expect(b[1]! & 0x80).toBe(0);
      if (b.length < at + len) return;
      this.frames.push({ fin: (b[0]! & 0x80) !== 0, opcode: b[0]! & 0x0f, payload: Buffer.from(b.subarray(at, at + len)) });
      this.buffer = b.subarray(at + len);
    }
  }

  frame(opcode: number, payload: Buffer, opts: { fin?: boolean; masked?: boolean } = {}): void {
    const masked = opts.masked ?? true;
    const len = payload.length;
    const head = len < 126 ? Buffer.from([0, len]) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
    if (len >= 126 && len < 65536) {
      head[1] = 126;
      head.writeUInt16BE(len, 2);
    } else if (len >= 65536) {
      head[1] = 127;
      head.writeBigUInt64BE(BigInt(len), 2);
    }
    head[0] = ((opts.fin ?? true) ? 0x80 : 0) | opcode;
    if (masked) head[1]! |= 0x80;
    const mask = randomBytes(4);
    const body = Buffer.from(payload);
    if (masked) for (let i = 0; i < body.length; i++) body[i]! ^= mask[i & 3]!;
    this.socket.write(Buffer.concat(masked ? [head, mask, body] : [head, body]));
  }

  sendJson(value: unknown): void {
    this.frame(0x1, Buffer.from(JSON.stringify(value)));
  }

  texts(): Record<string, unknown>[] {
    return this.frames.filter((f) => f.opcode === 0x1).map((f) => JSON.parse(f.payload.toString("utf8")));
  }

  async next(pred: (f: Frame) => boolean): Promise<Frame> {
    return waitFor(() => this.frames.find(pred));
  }

  destroy(): void {
    this.socket.destroy();
  }
}

const SDKS: ServerKind[] = ["the TypeScript SDK under Node", "the TypeScript SDK under Bun", "the Python SDK"];

for (const kind of SDKS) {
  describe(`${kind}: the WebSocket server`, () => {
    const serve = async () => {
      const { argv, env } = serverCommand(kind, "wire", 0, bundleDir);
      const s = await startServer(argv, { ...env, WS_TOKEN: TOKEN });
      servers.push(s);
      return s;
    };

    test("accepts the right token with the RFC 6455 accept key and speaks the protocol over masked, fragmented and long frames", async () => {
      const server = await serve();
      const { client, key } = await RawClient.open(server.port, TOKEN);
      expect(client.status).toBe("HTTP/1.1 101 Switching Protocols");
      expect(client.accept).toBe(
        createHash("sha1")
          .update(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")
          .digest("base64"),
      );
      const hello = await client.next((f) => f.opcode === 0x1);
      expect(JSON.parse(hello.payload.toString())).toMatchObject({ type: "hello", name: "wire" });

      client.frame(0x9, Buffer.from("are you there"));
      expect((await client.next((f) => f.opcode === 0xa)).payload.toString()).toBe("are you there");

      // hello_ack split over a text frame and a continuation frame.
      const ack = Buffer.from(
        JSON.stringify({
          type: "hello_ack",
          protocol_version: 1,
          zot_version: "9.9.9",
          provider: "p",
          model: "m",
          cwd: "/",
          extension_dir: "/",
          data_dir: "/",
          capabilities: [],
        }),
      );
      client.frame(0x1, ack.subarray(0, 20), { fin: false });
      client.frame(0x0, ack.subarray(20));
      await waitFor(() => client.texts().some((f) => f.type === "ready"));
      expect(
        client
          .texts()
          .filter((f) => f.type === "register_tool")
          .map((f) => f.name)
          .sort(),
      ).toEqual(["echo", "hang"]);

      for (const size of [300, 70_000]) {
        const big = "x".repeat(size);
        client.sendJson({ type: "tool_call", id: `big${size}`, name: "echo", args: { big } });
        await waitFor(() => client.texts().find((f) => f.id === `big${size}`));
        const result = client.texts().find((f) => f.id === `big${size}`) as { content: { text: string }[] };
        expect(result.content[0]!.text).toStartWith(`echo {"big":"${big}"}`);
      }

      client.frame(0x8, Buffer.from([0x03, 0xe8]));
      const close = await client.next((f) => f.opcode === 0x8);
      expect(close.payload.readUInt16BE(0)).toBe(1000);
      await waitFor(() => client.ended);
    });

    test("refuses a wrong token with 401 and a second zot with 409, and serves the next zot after one leaves", async () => {
      const server = await serve();
      const wrong = await RawClient.open(server.port, "not-it");
      expect(wrong.client.status).toBe("HTTP/1.1 401 Unauthorized");
      wrong.client.destroy();

      const first = await RawClient.open(server.port, TOKEN);
      expect(first.client.status).toBe("HTTP/1.1 101 Switching Protocols");
      await first.client.next((f) => f.opcode === 0x1);
      const second = await RawClient.open(server.port, TOKEN);
      expect(second.client.status).toBe("HTTP/1.1 409 Conflict");
      second.client.destroy();

      first.client.destroy();
      // The server sees the first one go a moment later; until then it is still busy.
      let third = await RawClient.open(server.port, TOKEN);
      for (let tries = 0; third.client.status.includes("409") && tries < 200; tries++) {
        third.client.destroy();
        await Bun.sleep(20);
        third = await RawClient.open(server.port, TOKEN);
      }
      expect(third.client.status).toBe("HTTP/1.1 101 Switching Protocols");
      const hello = await third.client.next((f) => f.opcode === 0x1);
      expect(JSON.parse(hello.payload.toString()).type).toBe("hello");
      third.client.destroy();
    });

    test("closes with 1002 when the client does not mask its frames", async () => {
      const server = await serve();
      const { client } = await RawClient.open(server.port, TOKEN);
      await client.next((f) => f.opcode === 0x1);
      client.frame(0x1, Buffer.from("{}"), { masked: false });
      const close = await client.next((f) => f.opcode === 0x8);
      expect(close.payload.readUInt16BE(0)).toBe(1002);
      client.destroy();
    });
  });
}
