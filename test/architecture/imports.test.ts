// The shape of src/: no import cycles between modules (type imports count: a cycle of types is still
// two modules that cannot be understood apart) nor between its rooms (top-level folders), and every
// room imports only the rooms below it. Every import form counts: static, `import type`, `export …
// from`, side-effect, dynamic `import()` and `typeof import()`; a dynamic import whose specifier is
// not a string literal cannot be checked and fails the test.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { code, sources, src, staticSpecifiers } from "./source-text.ts";
import { dirname, join, relative, resolve } from "node:path";

/** Every module specifier in `text`, whatever the import form; `null` for a dynamic import of a computed name. */
export function specifiers(text: string): (string | null)[] {
  const body = code(text);
  const found: (string | null)[] = staticSpecifiers(text);
  // import("./x.ts"), await import(…), typeof import("./x.ts"); not the word at the start of a string
  for (const m of body.matchAll(/(?<![\w"'.\\])import\s*\(\s*([^)]*?)\s*[,)]/g)) {
    const literal = /^["']([^"'`]+)["']$/.exec(m[1]!);
    found.push(literal ? literal[1]! : null);
  }
  return found;
}

type Graph = Map<string, string[]>;

/** Module → the modules of src/ it imports or re-exports, as paths relative to src/; computed dynamic imports as "?". */
function importGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sources(src)) {
    const deps = specifiers(readFileSync(file, "utf8"))
      .map((s) => (s === null ? "?" : s.startsWith(".") ? relative(src, resolve(dirname(file), s)) : null))
      .filter((d): d is string => d !== null && !d.startsWith(".."));
    graph.set(relative(src, file), deps);
  }
  return graph;
}

function cycles(graph: Graph): string[] {
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

/** A module's room: its top-level folder, `main` for the entry, `leaves` for the other files at the top. */
function room(module: string): string {
  if (module === "main.ts") return "main";
  return module.includes("/") ? module.slice(0, module.indexOf("/")) : "leaves";
}

/** Room → the rooms it imports (itself excluded). */
function roomGraph(graph: Graph): Graph {
  const rooms: Graph = new Map();
  for (const [from, deps] of graph) {
    const r = room(from);
    const set = new Set(rooms.get(r) ?? []);
    for (const d of deps) if (room(d) !== r) set.add(room(d));
    rooms.set(r, [...set].sort());
  }
  return rooms;
}

/**
 * What each room may import, bottom to top. The leaves (json, protocol, version, …) and the
 * platform sit under everything; the agent core (loop, its hooks, messages, providers, tools,
 * sessions) is below the extension and MCP hosts, which implement its hooks; the runtime wires the
 * core and the hosts; the modes drive the runtime; the TUI is started only by the CLI entry.
 */
const MAY_IMPORT: Record<string, string[]> = {
  leaves: [],
  platform: ["leaves"],
  update: ["platform", "leaves"],
  agent: ["platform", "leaves"],
  ext: ["agent", "platform", "leaves"],
  mcp: ["ext", "agent", "platform", "leaves"],
  runtime: ["mcp", "ext", "agent", "platform", "leaves"],
  modes: ["runtime", "ext", "agent", "platform", "leaves"],
  tui: ["modes", "runtime", "ext", "agent", "platform", "leaves"],
  cli: ["tui", "modes", "runtime", "mcp", "ext", "agent", "update", "platform", "leaves"],
  main: ["cli", "tui", "modes", "runtime", "mcp", "ext", "agent", "update", "platform", "leaves"],
};

function layerViolations(graph: Graph): string[] {
  const violations: string[] = [];
  for (const [from, deps] of graph) {
    const allowed = MAY_IMPORT[room(from)];
    if (allowed === undefined) {
      violations.push(`${from} is in a room the layer rules do not know (${room(from)}/): add it to MAY_IMPORT`);
      continue;
    }
    for (const d of deps) if (room(d) !== room(from) && !allowed.includes(room(d))) violations.push(`${from} imports ${d}`);
  }
  return violations;
}

/**
 * What the modes (the TUI, print, JSON, RPC) may import of the agent and the runtime: the runtime's
 * API (operations in, and the vocabulary they speak), its events, the messages and content they
 * carry and those messages' JSON form, and the workspace-trust review a run starts with.
 */
const MODE_API = ["runtime/api.ts", "runtime/project-code.ts", "agent/events.ts", "agent/messages.ts", "agent/content.ts", "agent/message-json.ts"];

function modeViolations(graph: Graph): string[] {
  const violations: string[] = [];
  for (const [from, deps] of graph) {
    if (room(from) !== "tui" && room(from) !== "modes") continue;
    for (const d of deps) if ((room(d) === "agent" || room(d) === "runtime") && !MODE_API.includes(d)) violations.push(`${from} imports ${d}`);
  }
  return violations;
}

/** The management commands (`zot ext`, `zot mcp` under `cli/`) and the entry. */
const isCli = (m: string) => room(m) === "cli" || room(m) === "main";

/** A host's CLI module imported from outside the CLIs: a mode or the runtime reaching into a command. */
function cliViolations(graph: Graph): string[] {
  const violations: string[] = [];
  for (const [from, deps] of graph) if (!isCli(from)) for (const d of deps) if (isCli(d)) violations.push(`${from} imports ${d}`);
  return violations;
}

test("every import form is read: static, type, re-export, side-effect, dynamic and typeof import", () => {
  const text = [
    'import { a } from "./a.ts";',
    'import type { B } from "./b.ts";',
    "import {",
    "  c,",
    "  type C,",
    '} from "./c.ts";',
    'import * as d from "./d.ts";',
    'export { e } from "./e.ts";',
    'export * from "./f.ts";',
    'export type { G } from "./g.ts";',
    'import "./h.ts";',
    'const { i } = await import("./i.ts");',
    'const j = () => import( "./j.ts" ).then((m) => m.j);',
    'type K = typeof import("./k.ts");',
    "const l = await import(name);",
    '// import { x } from "./commented.ts";',
    '/* await import("./commented-too.ts") */',
    'const s = "import(\\"./in-a-string\\") is text // not a comment";',
  ].join("\n");
  expect(specifiers(text)).toEqual(["./a.ts", "./b.ts", "./c.ts", "./d.ts", "./e.ts", "./f.ts", "./g.ts", "./h.ts", "./i.ts", "./j.ts", "./k.ts", null]);
});

test("every dynamic import in src/ names its module literally, so the rules can check it", () => {
  const computed = [...importGraph()].filter(([, deps]) => deps.includes("?")).map(([from]) => from);
  expect(computed).toEqual([]);
});

test("src/ has no import cycles", () => {
  expect(cycles(importGraph())).toEqual([]);
});

test("the rooms of src/ form no cycle", () => {
  expect(cycles(roomGraph(importGraph()))).toEqual([]);
});

test("the cycle check finds a cycle when there is one", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts"]],
    ["c.ts", ["a.ts"]],
  ]);
  expect(cycles(graph)).toEqual(["a.ts → b.ts → c.ts → a.ts"]);
  expect(
    cycles(
      roomGraph(
        new Map([
          ["agent/loop.ts", ["ext/host.ts"]],
          ["ext/host.ts", ["agent/hooks.ts"]],
        ]),
      ),
    ),
  ).toEqual(["agent → ext → agent"]);
});

test("rooms import only the rooms below them: platform and the leaves under all, then the agent core, the hosts, the runtime, the modes, the TUI, the CLI", () => {
  expect(layerViolations(importGraph())).toEqual([]);
});

test("the modes reach the agent only through the runtime's API, events, messages and content", () => {
  expect(modeViolations(importGraph())).toEqual([]);
  expect(
    modeViolations(
      new Map([
        ["tui/app.ts", ["agent/tools/write.ts", "runtime/api.ts", "agent/events.ts"]],
        ["cli/run.ts", ["runtime/setup.ts"]],
      ]),
    ),
  ).toEqual(["tui/app.ts imports agent/tools/write.ts"]);
});

test("the management commands are imported only by other commands and the entry, never by a mode, the runtime or a host", () => {
  expect(cliViolations(importGraph())).toEqual([]);
  expect(
    cliViolations(
      new Map([
        ["modes/rpc.ts", ["cli/ext/doctor.ts"]],
        ["cli/ext.ts", ["cli/ext/list.ts"]],
      ]),
    ),
  ).toEqual(["modes/rpc.ts imports cli/ext/doctor.ts"]);
});

test("the layer check reports an import upwards and a room it does not know", () => {
  const graph = new Map([
    ["agent/loop.ts", ["ext/host.ts", "platform/shell.ts"]],
    ["tui/app.ts", ["cli/controls.ts"]],
    ["newroom/x.ts", []],
  ]);
  expect(layerViolations(graph)).toEqual([
    "agent/loop.ts imports ext/host.ts",
    "tui/app.ts imports cli/controls.ts",
    "newroom/x.ts is in a room the layer rules do not know (newroom/): add it to MAY_IMPORT",
  ]);
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
