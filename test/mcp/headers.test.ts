// SEP-2243 `x-mcp-header` annotations checked when a 2026-07-28 server on 127.0.0.1 lists its tools:
// a tool whose annotations could not become HTTP headers is not offered (and so never called), with
// a warning naming the server and the tool; the valid tools of the same list work, their headers sent.
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

const param = (name: string, schema: Record<string, unknown>) => ({ name, inputSchema: { type: "object", properties: schema } });
const TOOLS = [
  param("valid_tool", {
    region: { type: "string", "x-mcp-header": "Region" },
    n: { type: "integer", "x-mcp-header": "N" },
    on: { type: ["boolean", "null"], "x-mcp-header": "On" },
  }),
  param("invalid_empty_header", { value: { type: "string", "x-mcp-header": "" } }),
  param("invalid_object_header", { data: { type: "object", "x-mcp-header": "Data" } }),
  param("invalid_array_header", { items: { type: "array", items: { type: "string" }, "x-mcp-header": "Items" } }),
  param("invalid_number_header", { score: { type: "number", "x-mcp-header": "Score" } }),
  param("invalid_duplicate_diff_case", { field1: { type: "string", "x-mcp-header": "MyField" }, field2: { type: "string", "x-mcp-header": "myfield" } }),
  param("invalid_space_in_name", { value: { type: "string", "x-mcp-header": "My Region" } }),
  param("invalid_colon_in_name", { value: { type: "string", "x-mcp-header": "Region:Primary" } }),
  param("invalid_non_ascii_name", { value: { type: "string", "x-mcp-header": "Région" } }),
  param("invalid_nested", { outer: { type: "object", properties: { inner: { type: "string", "x-mcp-header": "Bad\tName" } } } }),
];

async function start(): Promise<McpHost> {
  const srv: McpHttpServer = startMcpHttpServer({
    era: "modern",
    reply: "json",
    guard: () => {
      const body = srv.requests.at(-1)?.body;
      if (body?.method === "tools/list") return Response.json({ jsonrpc: "2.0", id: body.id ?? null, result: { resultType: "complete", tools: TOOLS } });
      if (body?.method === "tools/call")
        return Response.json({ jsonrpc: "2.0", id: body.id ?? null, result: { resultType: "complete", content: [{ type: "text", text: "called" }] } });
      return null;
    },
  });
  server = srv;
  writeList(join(s.home, "mcp.json"), { web: { type: "http", url: srv.url } });
  host = await loadHost(s);
  return host;
}

test("tools whose x-mcp-header annotations are invalid are not offered, each with a warning naming the server and the tool", async () => {
  const h = await start();
  expect(h.tools().map((t) => t.name)).toEqual(["mcp__web__valid_tool"]);
  const warnings = h.serverStates()[0]!.warnings;
  expect(warnings).toEqual([
    'tool "invalid_empty_header" of MCP server "web" is not offered: the x-mcp-header of its parameter "value" is empty or not a string',
    'tool "invalid_object_header" of MCP server "web" is not offered: the x-mcp-header "Data" is on its parameter "data" of type "object"; only string, integer and boolean parameters can be headers',
    'tool "invalid_array_header" of MCP server "web" is not offered: the x-mcp-header "Items" is on its parameter "items" of type "array"; only string, integer and boolean parameters can be headers',
    'tool "invalid_number_header" of MCP server "web" is not offered: the x-mcp-header "Score" is on its parameter "score" of type "number"; only string, integer and boolean parameters can be headers',
    'tool "invalid_duplicate_diff_case" of MCP server "web" is not offered: the x-mcp-header "myfield" of its parameter "field2" repeats the one of "field1" (header names ignore case)',
    `tool "invalid_space_in_name" of MCP server "web" is not offered: the x-mcp-header "My Region" of its parameter "value" has characters an HTTP header name cannot have (only letters, digits and !#$%&'*+-.^_\`|~)`,
    `tool "invalid_colon_in_name" of MCP server "web" is not offered: the x-mcp-header "Region:Primary" of its parameter "value" has characters an HTTP header name cannot have (only letters, digits and !#$%&'*+-.^_\`|~)`,
    `tool "invalid_non_ascii_name" of MCP server "web" is not offered: the x-mcp-header "Région" of its parameter "value" has characters an HTTP header name cannot have (only letters, digits and !#$%&'*+-.^_\`|~)`,
    `tool "invalid_nested" of MCP server "web" is not offered: the x-mcp-header "Bad\\tName" of its parameter "outer.inner" has characters an HTTP header name cannot have (only letters, digits and !#$%&'*+-.^_\`|~)`,
  ]);
});

test("the valid tool of the same list is called with its Mcp-Param headers, and no call of an invalid one ever reaches the server", async () => {
  const h = await start();
  expect((await h.callTool("mcp__web__valid_tool", { region: "us-west1", n: 42, on: true }, { signal: signal() })).content[0]).toEqual({
    type: "text",
    text: "called",
  });
  const unknown = await h.callTool("mcp__web__invalid_space_in_name", { value: "x" }, { signal: signal() });
  expect(unknown.isError).toBe(true);
  const calls = server!.requests.filter((r) => r.body?.method === "tools/call");
  expect(calls.map((c) => (c.body!.params as { name: string }).name)).toEqual(["valid_tool"]);
  expect(calls[0]!.headers).toMatchObject({ "mcp-param-region": "us-west1", "mcp-param-n": "42", "mcp-param-on": "true" });
});
