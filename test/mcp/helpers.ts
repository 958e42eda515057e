// Shared by the MCP tests: a temporary $ZOT_HOME and project, server lists written as real files,
// and an McpHost over a real (extension-less) Host, loaded the way a zot run loads it.
import { beforeEach } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Host } from "../../src/ext/host.ts";
import { McpHost, type McpOptions } from "../../src/mcp/host.ts";
import { useTestScope } from "../helpers/test-scope.ts";
import { tempDir } from "../helpers/temp.ts";

export const MCP_FIXTURES = resolve(import.meta.dir, "../fixtures/mcp");
export const LEGACY = join(MCP_FIXTURES, "legacy_server.py");
export const MODERN = join(MCP_FIXTURES, "modern_server.py");
export const HOSTILE = join(MCP_FIXTURES, "hostile.py");

export type Scratch = { home: string; project: string; root: string; cleanup: () => void };

export function scratch(): Scratch {
  const root = tempDir("zot-mcp-");
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  return { root, home, project, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export type ScratchDirs = Omit<Scratch, "cleanup">;

/**
 * A fresh scratch per test, removed after it. `teardown` runs first (shut a host or server down
 * there), so nothing a test started outlives its directories.
 */
export function useScratch(teardown?: () => unknown): ScratchDirs {
  const scope = useTestScope();
  let current: Scratch | undefined;
  beforeEach(() => {
    current = scratch();
    scope.defer(current.cleanup);
    if (teardown) scope.defer(teardown);
  });
  const dirs = (): Scratch => {
    if (!current) throw new Error("useScratch's directories exist only while a test runs");
    return current;
  };
  return {
    get root() {
      return dirs().root;
    },
    get home() {
      return dirs().home;
    },
    get project() {
      return dirs().project;
    },
  };
}

export function writeList(path: string, servers: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  writeFileSync(path, JSON.stringify({ mcpServers: servers, ...extra }, null, 2));
  return path;
}

export function python(script: string, ...args: string[]): { command: string; args: string[] } {
  return { command: "python3", args: [script, ...args] };
}

/** Loads every server list the options name; `trust` defaults to "all" (every project server approved). */
export async function loadHost(s: ScratchDirs, opts: Partial<McpOptions> = {}): Promise<McpHost> {
  const host = new McpHost(new Host(), {
    files: [],
    none: false,
    interactive: false,
    trust: "all",
    graceMs: 500,
    killAfterMs: 500,
    ...opts,
  });
  await host.load({ extPaths: [], noExt: true, cwd: s.project, home: s.home, info: { zotVersion: "test", provider: "mock", model: "m", cwd: s.project } });
  return host;
}

/** The fixture's log of what reached it ($MCP_FIXTURE_LOG). */
export function fixtureLog(path: string): Record<string, unknown>[] {
  try {
    return readFileSync(path, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
}

export const signal = () => new AbortController().signal;
