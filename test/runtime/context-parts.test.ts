// /context's parts: the system prompt, each instruction file, zot's tools, each extension's and each
// MCP server's tools, the messages (images at a flat rate), estimated at four characters a token.
import { expect, test } from "bun:test";
import { contextReport } from "../../src/runtime/context-parts.ts";

test("each owner of tools is its own part, MCP servers named as such, and the total adds up", () => {
  const tool = (name: string, extension: string) => ({
    name,
    description: "x".repeat(40),
    schema: { type: "object" },
    deferred: false,
    active: true,
    extension,
  });
  const r = contextReport({
    system: "s".repeat(400),
    instructions: [{ path: "/p/AGENTS.md", text: "a".repeat(80) }],
    builtins: [{ name: "read", description: "d".repeat(100), schema: { type: "object" } }],
    tools: [tool("lint", "linter"), tool("search", "mcp:docs"), tool("fetch", "mcp:docs")],
    messages: [
      {
        role: "user",
        ts: 0,
        content: [
          { type: "text", text: "q".repeat(40) },
          { type: "image", mimeType: "image/png", data: "A".repeat(100_000) },
        ],
      },
      {
        role: "assistant",
        ts: 0,
        provider: "p",
        model: "m",
        stop: "end_turn",
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
        content: [{ type: "text", text: "r".repeat(40) }],
      },
    ],
    measured: 1234,
    window: 10_000,
  });
  expect(r.parts.map((p) => [p.kind, p.label])).toEqual([
    ["system", "system prompt"],
    ["instructions", "/p/AGENTS.md"],
    ["tools", "zot's tools (1)"],
    ["extension", "extension linter (1 tool)"],
    ["mcp", "MCP server docs (2 tools)"],
    ["messages", "messages (2, 1 image)"],
  ]);
  expect(r.parts[0]!.tokens).toBe(100);
  expect(r.parts[1]!.tokens).toBe(20);
  // An image counts as a picture, not as its base64 text.
  expect(r.parts[5]!.tokens).toBe(20 + 1500);
  expect(r.total).toBe(r.parts.reduce((n, p) => n + p.tokens, 0));
  expect(r).toMatchObject({ measured: 1234, window: 10_000 });
});
