// The official reference servers from npm (everything, filesystem, memory), started through npx
// exactly as a user's .mcp.json starts them. They need the npm registry (or npx's cache), so this
// file runs only with ZOT_MCP_REFERENCE=1: `ZOT_MCP_REFERENCE=1 bun test test/mcp/reference.test.ts`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { McpHost } from "../../src/mcp/host.ts";
import { loadHost, scratch, signal, writeList, type Scratch } from "./helpers.ts";

const enabled = process.env.ZOT_MCP_REFERENCE === "1";
let s: Scratch;
let host: McpHost;
let fsroot: string;

describe.skipIf(!enabled)("the npm reference servers", () => {
  beforeAll(async () => {
    s = scratch();
    fsroot = s.project;
    mkdirSync(join(fsroot, "docs"));
    writeFileSync(join(fsroot, "docs", "note.txt"), "a note for the filesystem server\n");
    writeList(join(s.home, "mcp.json"), {
      everything: { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"], startupTimeout: 120_000 },
      filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", fsroot], startupTimeout: 120_000 },
      memory: {
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-memory"],
        env: { MEMORY_FILE_PATH: join(s.root, "memory.jsonl") },
        startupTimeout: 120_000,
      },
    });
    host = await loadHost(s);
  }, 180_000);
  afterAll(async () => {
    await host?.shutdown();
    s?.cleanup();
  });

  test("all three start in the initialize era (2025-11-25)", () => {
    expect(host.serverStates().map((x) => [x.name, x.status, x.protocolVersion])).toEqual([
      ["everything", "ready", "2025-11-25"],
      ["filesystem", "ready", "2025-11-25"],
      ["memory", "ready", "2025-11-25"],
    ]);
  });

  test("everything: echo, sums with structured content, images, resource links, prompts and resources", async () => {
    expect(await host.callTool("mcp__everything__echo", { message: "hi" }, { signal: signal() })).toMatchObject({
      isError: false,
      content: [{ type: "text", text: "Echo: hi" }],
    });
    const sum = await host.callTool("mcp__everything__get-structured-content", { location: "New York" }, { signal: signal() });
    expect(sum.isError).toBe(false);
    expect(sum.structured).toEqual({ temperature: 33, conditions: "Cloudy", humidity: 82 });
    const image = await host.callTool("mcp__everything__get-tiny-image", {}, { signal: signal() });
    expect(image.content.some((c) => c.type === "image")).toBe(true);
    const links = await host.callTool("mcp__everything__get-resource-links", { count: 2 }, { signal: signal() });
    expect(links.content.some((c) => c.type === "text" && c.text.startsWith("[resource link: "))).toBe(true);
    const prompt = await host.invokeCommand("mcp__everything__args-prompt", "city=Paris");
    expect(prompt).toMatchObject({ ok: true, response: { action: "prompt" } });
    const uri = host.serverStates()[0]!.resources[0];
    const attached = await host.attach(`read @everything:${uri}`);
    expect(attached.errors).toEqual([]);
    expect(attached.text).toContain(`<resource server="everything" uri="${uri}">`);
  });

  test("filesystem: reads a file of the project (its root comes from zot's roots)", async () => {
    const r = await host.callTool("mcp__filesystem__read_text_file", { path: join(fsroot, "docs", "note.txt") }, { signal: signal() });
    expect(r).toMatchObject({ isError: false, content: [{ type: "text", text: "a note for the filesystem server\n" }] });
  });

  test("memory: creates an entity and reads it back", async () => {
    await host.callTool(
      "mcp__memory__create_entities",
      { entities: [{ name: "zot", entityType: "agent", observations: ["speaks MCP"] }] },
      { signal: signal() },
    );
    const graph = await host.callTool("mcp__memory__read_graph", {}, { signal: signal() });
    expect(JSON.stringify(graph.content)).toContain("speaks MCP");
    expect(readFileSync(join(s.root, "memory.jsonl"), "utf8")).toContain("zot");
  });
});
