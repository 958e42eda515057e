// The WebSocket transport against real servers on 127.0.0.1 — a plain Bun.serve one, the TypeScript
// SDK's under Bun and under Node, the Python SDK's: handshake, tool calls, a dropped connection
// failing the pending call at once, reconnection with backoff, reload, and refusals.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { bundle } from "../../sdk/typescript/build.ts";
import { start, type Harness } from "./fixture-host.ts";
import { SERVER_KINDS, serverCommand, startServer, wsExtension, type Server, type ServerKind } from "./ws-server.ts";
import { waitFor } from "../helpers/wait.ts";
import { tempDir } from "../helpers/temp.ts";

const TOKEN = "s3cret-token";
process.env.ZOT_TEST_WS_TOKEN = TOKEN;
process.env.ZOT_TEST_WS_WRONG = "not-the-token";

const cleanup: (() => Promise<void> | void)[] = [];
let bundleDir = "";
beforeAll(async () => {
  bundleDir = tempDir("zot-ws-sdk-");
  const failure = await bundle(bundleDir);
  if (failure) throw new Error(failure);
});
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

const abort = () => new AbortController().signal;

async function serve(kind: ServerKind, name: string, port = 0): Promise<Server> {
  const { argv, env } = serverCommand(kind, name, port, bundleDir);
  const s = await startServer(argv, { ...env, WS_TOKEN: TOKEN });
  cleanup.push(() => s.kill());
  return s;
}

async function load(dir: string, timings = {}): Promise<Harness> {
  const h = await start([dir], { reconnectMs: 50, reconnectMaxMs: 200, ...timings });
  cleanup.push(() => h.close());
  cleanup.push(() => rmSync(dirname(dir), { recursive: true, force: true }));
  return h;
}

const text = (r: { content: { type: string; text?: string }[] }) => r.content.map((b) => b.text ?? "").join("");

for (const kind of SERVER_KINDS)
  describe(`${kind} as an extension`, () => {
    const plainServer = (name: string, port = 0) => serve(kind, name, port);
    test("zot connects with the bearer token, handshakes, registers its tools and calls one", async () => {
      const server = await plainServer("plain-ws");
      const h = await load(wsExtension("plain-ws", { url: `ws://127.0.0.1:${server.port}/zot`, token_env: "ZOT_TEST_WS_TOKEN" }));
      const s = h.host.states().find((x) => x.name === "plain-ws")!;
      expect(s.status).toBe("ready");
      expect(s.tools.map((t) => t.name).sort()).toEqual(["echo", "hang"]);
      expect(s.enforcement).toBe("unrestricted (runs outside zot)");
      const r = await h.host.callTool("echo", { a: 1 }, { signal: abort() });
      expect(r.isError).toBe(false);
      expect(text(r)).toBe(`echo {"a":1} from ${server.pid}`);
      const log = h.log("plain-ws");
      expect(log).toContain(`[zot] connecting to ws://127.0.0.1:${server.port}/zot; it runs outside zot, so zot cannot sandbox it`);
      expect(log).toContain("[zot] registration complete (ready)");
      expect(log).not.toContain(TOKEN);
    });

    test("a server killed mid-call fails the pending call at once, naming the extension, and zot reconnects when it is back", async () => {
      const first = await plainServer("crashy-ws");
      const port = first.port;
      const h = await load(wsExtension("crashy-ws", { url: `ws://127.0.0.1:${port}/`, token_env: "ZOT_TEST_WS_TOKEN" }));
      h.host.emit({ event: "session_start" });
      await h.intent((i) => i.kind === "notify" && i.message === `session_start seen by ${first.pid}`);
      // The default tool deadline is 60 s: an answer long before it is the crash, not a timeout.
      const call = h.host.callTool("hang", {}, { signal: abort() });
      await waitFor(() => first.output().includes("hanging on"));
      await first.kill();
      const r = await call;
      expect(r.isError).toBe(true);
      expect(text(r)).toContain(`tool "hang" failed: extension "crashy-ws" closed the WebSocket connection (code 1006)`);
      const exited = await h.intent((i) => i.kind === "extension_exited" && i.extension === "crashy-ws");
      expect(exited.kind === "extension_exited" && exited.message).toContain("; zot reconnects when it is back");
      expect(h.host.tools().map((t) => t.name)).toEqual([]);
      // While nothing listens, each try fails and the next one waits longer.
      await waitFor(() => h.log("crashy-ws").includes("reconnect failed; trying again in"));

      const second = await plainServer("crashy-ws", port);
      await h.intent((i) => i.kind === "notify" && i.message === `reconnected to ws://127.0.0.1:${port}/`, 20_000);
      expect(
        h.host
          .tools()
          .map((t) => t.name)
          .sort(),
      ).toEqual(["echo", "hang"]);
      // Reconnected like a reload: session_start is sent again.
      await h.intent((i) => i.kind === "notify" && i.message === `session_start seen by ${second.pid}`);
      const again = await h.host.callTool("echo", { b: 2 }, { signal: abort() });
      expect(text(again)).toBe(`echo {"b":2} from ${second.pid}`);
    });

    test("/reload-ext reconnects: the extension is loaded again over a new connection", async () => {
      const server = await plainServer("reload-ws");
      const h = await load(wsExtension("reload-ws", { url: `ws://127.0.0.1:${server.port}/`, token_env: "ZOT_TEST_WS_TOKEN" }));
      const report = await h.host.reload("reload-ws");
      expect(report.errors).toEqual([]);
      expect(report.extensions[0]!.status).toBe("ready");
      expect(text(await h.host.callTool("echo", {}, { signal: abort() }))).toBe(`echo {} from ${server.pid}`);
      expect(h.log("reload-ws").match(/\[zot\] connected to/g)?.length).toBe(2);
      // The first connection ended the graceful way: shutdown, shutdown_ack, the extension closed it.
      expect(h.log("reload-ws")).toContain("[zot] shutdown acknowledged");
      expect(h.log("reload-ws")).toContain('[zot] extension closed the WebSocket connection (code 1000: "shutdown")');
    });

    test("a wrong token is refused with HTTP 401 and the load error says which setting to fix", async () => {
      const server = await plainServer("token-ws");
      const h = await load(wsExtension("token-ws", { url: `ws://127.0.0.1:${server.port}/`, token_env: "ZOT_TEST_WS_WRONG" }));
      const s = h.host.states().find((x) => x.name === "token-ws")!;
      expect(s.status).toBe("failed");
      expect(s.error).toContain(
        `extension "token-ws" failed to load: it could not connect to ws://127.0.0.1:${server.port}/: the extension refused zot's token (HTTP 401)`,
      );
      expect(s.error).toContain('"transport.token_env"');
      expect(s.error).not.toContain("not-the-token");
    });
  });

describe("WebSocket load failures", () => {
  test("a token variable that is not set fails the start with the variable's name", async () => {
    const h = await load(wsExtension("unset-ws", { url: "ws://127.0.0.1:9/", token_env: "ZOT_TEST_WS_NOT_SET" }));
    const s = h.host.states().find((x) => x.name === "unset-ws")!;
    expect(s.status).toBe("failed");
    expect(s.error).toContain('the variable ZOT_TEST_WS_NOT_SET named by "transport.token_env" is not set in zot\'s environment');
  });

  test("nothing listening on the port is a load failure that says to start the extension first", async () => {
    const server = await serve("a plain Bun WebSocket server", "gone-ws");
    const port = server.port;
    await server.kill();
    const h = await load(wsExtension("gone-ws", { url: `ws://127.0.0.1:${port}/` }));
    const s = h.host.states().find((x) => x.name === "gone-ws")!;
    expect(s.status).toBe("failed");
    expect(s.error).toContain(`could not connect to ws://127.0.0.1:${port}/: nothing accepted the connection; start the extension first`);
  });

  test("a port that accepts TCP but never answers the upgrade fails at the hello deadline, saying the connection did not open", async () => {
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    cleanup.push(() => silent.stop(true));
    const h = await load(wsExtension("mute-ws", { url: `ws://127.0.0.1:${silent.port}/` }), { helloMs: 500 });
    const s = h.host.states().find((x) => x.name === "mute-ws")!;
    expect(s.status).toBe("failed");
    expect(s.error).toContain(
      `no hello within 0.5 s; the connection to ws://127.0.0.1:${silent.port}/ did not open; check that the extension is listening there`,
    );
  });

  test("a server that accepts the connection but never says hello fails at the hello deadline", async () => {
    const quiet = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req, srv) => (srv.upgrade(req) ? undefined : new Response("", { status: 400 })),
      websocket: { message() {} },
    });
    cleanup.push(() => quiet.stop(true));
    const h = await load(wsExtension("quiet-ws", { url: `ws://127.0.0.1:${quiet.port}/` }), { helloMs: 500 });
    const s = h.host.states().find((x) => x.name === "quiet-ws")!;
    expect(s.status).toBe("failed");
    expect(s.error).toContain("no hello within 0.5 s; it must send a hello frame as soon as zot connects");
    expect(h.log("quiet-ws")).toContain(`[zot] connected to ws://127.0.0.1:${quiet.port}/`);
  });

  test("a non-loopback ws:// URL is refused at discovery, naming the manifest and the field", async () => {
    const dir = wsExtension("remote-ws", { url: "ws://10.1.2.3:8080/", token_env: "ZOT_TEST_WS_TOKEN" });
    const h = await load(dir);
    const s = h.host.states().find((x) => x.name === "remote-ws")!;
    expect(s.status).toBe("invalid");
    expect(s.error).toContain(join(dir, "extension.json"));
    expect(s.error).toContain('field "transport.url" points to 10.1.2.3, which is not this machine');
    expect(s.error).toContain('"allow_remote": true and a wss:// URL');
  });
});
