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
