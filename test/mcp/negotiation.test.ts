// How zot finds a server's protocol era when `server/discover` gets an answer that is not a plain
// DiscoverResult: a server on 127.0.0.1 that answers unknown methods with an empty result, one that
// refuses the version with UnsupportedProtocolVersion (-32022) and lists what it speaks, and one that
// lists nothing zot speaks. The initialize-era server behind them is the real test server.
import { expect, test } from "bun:test";
import { join } from "node:path";
import type { McpHost } from "../../src/mcp/host.ts";
import { startMcpHttpServer, type McpHttpServer } from "../helpers/mcp-http-server.ts";
import { loadHost, signal, useScratch, writeList } from "./helpers.ts";

let host: McpHost | null = null;
let server: McpHttpServer | null = null;
const s = useScratch(async () => {
  await host?.shutdown();
  host = null;
  await server?.stop();
  server = null;
});

/** A server of `era` whose `server/discover` replies are `discover(n)` for the n-th discover (null: its own answer). */
async function start(era: "legacy" | "modern", discover: (n: number) => Response | null): Promise<McpHost> {
  let discovers = 0;
  const srv: McpHttpServer = startMcpHttpServer({
    era,
    reply: "json",
    guard: () => {
      const body = srv.requests.at(-1)?.body;
      if (body?.method !== "server/discover") return null;
      return discover(++discovers);
    },
  });
  server = srv;
  writeList(join(s.home, "mcp.json"), { web: { type: "http", url: srv.url } });
  host = await loadHost(s);
  return host;
}

const reply = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const idOf = () => server!.requests.at(-1)!.body!.id ?? null;
const unsupported = (supported: string[]) =>
  reply({ jsonrpc: "2.0", id: idOf(), error: { code: -32022, message: "Unsupported protocol version", data: { supported, requested: "2026-07-28" } } }, 400);
const methods = () => server!.requests.map((r) => r.body?.method ?? r.method);

test("an empty result to server/discover is not taken for the 2026-07-28 era: zot falls back to initialize and lists the tools", async () => {
  const h = await start("legacy", () => reply({ jsonrpc: "2.0", id: idOf(), result: {} }));
  expect(h.serverStates()[0]!).toMatchObject({ status: "ready", era: "legacy", protocolVersion: "2025-11-25" });
  expect(methods().slice(0, 3)).toEqual(["server/discover", "initialize", "notifications/initialized"]);
  expect(h.tools().map((t) => t.name)).toContain("mcp__web__echo");
  expect((await h.callTool("mcp__web__echo", { text: "hi" }, { signal: signal() })).content[0]).toEqual({ type: "text", text: "echo: hi" });
});

test("a result with supportedVersions but no capabilities is not a DiscoverResult either", async () => {
  const h = await start("legacy", () => reply({ jsonrpc: "2.0", id: idOf(), result: { supportedVersions: ["2026-07-28"] } }));
  expect(h.serverStates()[0]!).toMatchObject({ status: "ready", era: "legacy" });
  expect(methods()).toContain("initialize");
});

test("UnsupportedProtocolVersion listing initialize-era versions: zot initializes with the newest of them it speaks", async () => {
  const h = await start("legacy", () => unsupported(["2024-10-01", "2025-03-26", "2025-06-18"]));
  const init = server!.requests.find((r) => r.body?.method === "initialize")!;
  expect((init.body!.params as { protocolVersion: string }).protocolVersion).toBe("2025-06-18");
  expect(h.serverStates()[0]!).toMatchObject({ status: "ready", era: "legacy", protocolVersion: "2025-06-18" });
  expect(h.tools().length).toBeGreaterThan(0);
});

test("a DiscoverResult that lists only initialize-era versions gets initialize with the newest of them zot speaks", async () => {
  const h = await start("legacy", () => reply({ jsonrpc: "2.0", id: idOf(), result: { supportedVersions: ["2025-03-26"], capabilities: { tools: {} } } }));
  const init = server!.requests.find((r) => r.body?.method === "initialize")!;
  expect((init.body!.params as { protocolVersion: string }).protocolVersion).toBe("2025-03-26");
  expect(h.serverStates()[0]!).toMatchObject({ status: "ready", era: "legacy", protocolVersion: "2025-03-26" });
});

test("UnsupportedProtocolVersion that lists 2026-07-28 itself is retried once, and the server is then spoken to in 2026-07-28", async () => {
  const h = await start("modern", (n) => (n === 1 ? unsupported(["2026-07-28"]) : null));
  expect(h.serverStates()[0]!).toMatchObject({ status: "ready", era: "modern", protocolVersion: "2026-07-28" });
  expect(methods().filter((m) => m === "server/discover")).toHaveLength(2);
  expect(methods()).not.toContain("initialize");
});

test("a server that keeps refusing the version it lists fails with a sentence that does not contradict itself", async () => {
  const h = await start("modern", () => unsupported(["2026-07-28"]));
  const st = h.serverStates()[0]!;
  expect(st.status).toBe("failed");
  expect(st.error).toBe("the server refused protocol version 2026-07-28 twice although it lists it among its supported versions (2026-07-28)");
});

test("a server that speaks no version zot speaks fails naming both lists", async () => {
  const h = await start("modern", () => unsupported(["2099-01-01"]));
  expect(h.serverStates()[0]!.error).toBe(
    "the server supports only protocol versions 2099-01-01 (said in its UnsupportedProtocolVersion error); zot speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05",
  );
  expect(methods()).not.toContain("initialize");
});
