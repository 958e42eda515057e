// The shape of src/: no import cycles (type imports count: a cycle of types is still two modules
// that cannot be understood apart), and the layers only import downwards — the platform helpers
// know nothing above them; the extension hosts (ext/, mcp/) nothing of the agent, the modes or the
// TUI; the agent nothing of the modes or the TUI.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const src = resolve(import.meta.dir, "../../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith(".ts") ? [path] : [];
  });
}

/** Module → the modules of src/ it imports or re-exports, as paths relative to src/. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const specifier = /^\s*(?:import|export)\s[^"';]*?from\s+"(\.{1,2}\/[^"]+\.ts)"/gm;
  for (const file of sources(src)) {
    const text = readFileSync(file, "utf8");
    const deps = [...text.matchAll(specifier)].map((m) => relative(src, resolve(dirname(file), m[1]!)));
    graph.set(relative(src, file), deps.filter((d) => !d.startsWith("..")));
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (m: string): void => {
    state.set(m, "open");
    stack.push(m);
    for (const d of graph.get(m) ?? []) {
      if (state.get(d) === "open") found.push([...stack.slice(stack.indexOf(d)), d].join(" → "));
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(m, "done");
  };
  for (const m of [...graph.keys()].sort()) if (!state.has(m)) visit(m);
  return found;
}

test("src/ has no import cycles", () => {
  expect(cycles(importGraph())).toEqual([]);
});

test("the cycle check finds a cycle when there is one", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts"]],
    ["c.ts", ["a.ts"]],
  ]);
  expect(cycles(graph)).toEqual(["a.ts → b.ts → c.ts → a.ts"]);
});

test("layers import only downwards: platform knows nothing above it; ext and mcp no agent, mode or TUI; the agent no mode or TUI", () => {
  const forbidden: Record<string, string[]> = {
    // The OS helpers (process trees, the reaper, shells, binary replacement) sit under everything.
    "platform/": ["ext/", "mcp/", "agent/", "modes/", "tui/", "cli/", "update/"],
    "ext/": ["agent/", "modes/", "tui/", "cli/"],
    // MCP servers are a second extension host (McpHost implements ExtensionHost): the same layer as ext/.
    "mcp/": ["agent/", "modes/", "tui/", "cli/"],
    "update/": ["ext/", "mcp/", "agent/", "modes/", "tui/", "cli/"],
    "agent/": ["modes/", "tui/", "cli/"],
  };
  const violations: string[] = [];
  for (const [from, deps] of importGraph()) {
    for (const [layer, above] of Object.entries(forbidden)) {
      if (!from.startsWith(layer)) continue;
      for (const d of deps) if (above.some((a) => d.startsWith(a))) violations.push(`${from} imports ${d}`);
    }
  }
  expect(violations).toEqual([]);
});

/**
 * Where `text` makes an HTTP request: a call of `fetch` (bare, `globalThis.` or `Bun.`), or an import
 * of node:http(s). A method *named* fetch — the handler of a local `Bun.serve`, which answers
 * requests rather than making them — is a definition, told apart by the body (or return type) after
 * its parameters. Comments and strings are not code.
 */
function outboundRequests(text: string): string[] {
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:\\])\/\/.*$/gm, "$1")
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (s) => (/^["']node:https?["']$/.test(s) ? s : '""'));
  const found: string[] = [];
  for (const m of code.matchAll(/(?<![\w$])(?:(?:globalThis|Bun)\s*\.\s*)?fetch\s*\(/g)) {
    let depth = 1;
    let i = m.index! + m[0].length;
    for (; i < code.length && depth > 0; i++) depth += code[i] === "(" ? 1 : code[i] === ")" ? -1 : 0;
    const definition = /^\s*[{:]/.test(code.slice(i)) && !m[0].includes(".");
    if (!definition) found.push(m[0].replace(/\s+/g, ""));
  }
  for (const m of code.matchAll(/from\s+["'](node:https?)["']/g)) found.push(`import ${m[1]}`);
  return found;
}

test("every outbound HTTP request goes through the HTTP door: no fetch call anywhere in src/ but platform/http.ts", () => {
  const door = join(src, "platform/http.ts");
  const violations = sources(src)
    .filter((file) => file !== door)
    .flatMap((file) => outboundRequests(readFileSync(file, "utf8")).map((what) => `${relative(src, file)}: ${what}`));
  expect(violations).toEqual([]);
});

test("the door rule finds fetch calls and node:http imports, and lets a local server's fetch handler pass", () => {
  const server = `Bun.serve({ port: 0, async fetch(req) { return new Response("x"); } });\nconst o = { fetch(r: Request): Response { return r as never; } };`;
  expect(outboundRequests(server)).toEqual([]);
  expect(outboundRequests(`// fetch(url) in a comment\nconst s = "fetch(x)";`)).toEqual([]);
  const calls = `await fetch(url, { headers });\nconst r = await globalThis.fetch(u);\nBun.fetch(u);\nconst f = (u: string) => fetch(u).then((r) => r.text());\nimport { request } from "node:https";`;
  expect(outboundRequests(calls)).toEqual(["fetch(", "globalThis.fetch(", "Bun.fetch(", "fetch(", "import node:https"]);
});
