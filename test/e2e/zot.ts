// Drives the real binary (dist/zot, built by `npm test` before `bun test`) for the end-to-end tests:
// one-shot runs with captured output, an RPC session over pipes, and the session files a run left.
import { beforeEach } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freshBinary } from "../../scripts/build-freshness.ts";
import type { ProviderServer } from "../helpers/provider-server.ts";
import { useTestScope, type TestScope } from "../helpers/test-scope.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const ZOT = freshBinary(ROOT, join(ROOT, "dist", "zot"));
export const FIXTURES = join(ROOT, "test", "fixtures", "agent");
/** Fixture extensions written in TypeScript start with `#!/usr/bin/env bun`. */
const PATH = `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`;

export type Run = { code: number; stdout: string; stderr: string };

/** A fresh $ZOT_HOME (and scratch dir) per test; `cleanup` removes it. */
export function tempDir(prefix = "zot-e2e-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export type ZotHome = TestScope & {
  /** This test's scratch directory, removed after it. */
  readonly root: string;
  /** This test's $ZOT_HOME (and the default cwd of its runs): the root, or the `home` folder in it. */
  readonly home: string;
  /** `runZot` with this test's home. */
  run(args: string[], opts?: { env?: Record<string, string>; stdin?: string; cwd?: string }): Promise<Run>;
  /** `zot rpc` with this test's home; killed after the test if still running. */
  rpc(args: string[], opts?: { env?: Record<string, string>; cwd?: string }): RpcSession;
};

/**
 * The set-up every end-to-end file shares: a fresh scratch directory per test, provider servers
 * and RPC sessions stopped after it. `homeDir` puts $ZOT_HOME in a folder of that name inside the
 * scratch directory, for tests that need room beside it (a repository, an extension).
 */
export function useZotHome(opts: { prefix?: string; homeDir?: string } = {}): ZotHome {
  const scope = useTestScope();
  let root: string | undefined;
  let home: string | undefined;
  beforeEach(() => {
    const t = tempDir(opts.prefix);
    scope.defer(t.cleanup);
    root = t.dir;
    home = opts.homeDir === undefined ? t.dir : join(t.dir, opts.homeDir);
    mkdirSync(home, { recursive: true });
  });
  const inTest = (dir: string | undefined): string => {
    if (dir === undefined) throw new Error("useZotHome's directories exist only while a test runs");
    return dir;
  };
  return {
    defer: scope.defer,
    serve: scope.serve,
    get server() {
      return scope.server;
    },
    get root() {
      return inTest(root);
    },
    get home() {
      return inTest(home);
    },
    run: (args, runOpts = {}) => runZot(args, { home: inTest(home), ...runOpts }),
    rpc(args, rpcOpts = {}) {
      const session = new RpcSession(args, { home: inTest(home), ...rpcOpts });
      scope.defer(async () => {
        if (session.proc.exitCode === null) session.proc.kill("SIGKILL");
        await session.proc.exited;
      });
      return session;
    },
  };
}

/** Flags for a run against a provider server on the Anthropic wire, with a test key. */
export const anthropic = (server: ProviderServer): string[] => ["--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-e2e-key-000"];

export function zotEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Keys from the developer's shell must not leak into tests (they would change the default provider).
    if (v !== undefined && !/_API_KEY$/.test(k) && k !== "ZOTCORE_RPC_TOKEN" && !k.startsWith("ZOT_")) env[k] = v;
  }
  return { ...env, PATH, ZOT_HOME: home, ...extra };
}

export async function runZot(args: string[], opts: { home: string; env?: Record<string, string>; stdin?: string; cwd?: string }): Promise<Run> {
  const proc = Bun.spawn([ZOT, ...args], {
    cwd: opts.cwd ?? opts.home,
    env: zotEnv(opts.home, opts.env),
    stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Every session transcript under `$ZOT_HOME/sessions` (one folder per project). */
export function sessionFiles(home: string): string[] {
  const root = join(home, "sessions");
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((d) => readdirSync(join(root, d)).map((f) => join(root, d, f)));
}

export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

type Frame = Record<string, unknown>;

/** `zot rpc` over pipes: send commands, wait for frames matching a predicate. */
export class RpcSession {
  readonly frames: Frame[] = [];
  readonly proc: ReturnType<typeof Bun.spawn>;
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private stderrText: Promise<string>;
  private nextId = 1;

  constructor(args: string[], opts: { home: string; env?: Record<string, string>; cwd?: string }) {
    this.proc = Bun.spawn([ZOT, "rpc", ...args], {
      cwd: opts.cwd ?? opts.home,
      env: zotEnv(opts.home, opts.env),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    this.stderrText = new Response(this.proc.stderr as ReadableStream<Uint8Array>).text();
    void this.read();
  }

  private async read(): Promise<void> {
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of this.proc.stdout as ReadableStream<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim() === "") continue;
        const frame = JSON.parse(line) as Frame;
        this.frames.push(frame);
        this.waiters = this.waiters.filter((w) => {
          if (!w.match(frame)) return true;
          w.resolve(frame);
          return false;
        });
      }
    }
  }

  /** Writes a raw line (for malformed-input tests). */
  writeLine(line: string): void {
    const stdin = this.proc.stdin as import("bun").FileSink;
    stdin.write(line + "\n");
    stdin.flush();
  }

  /** Sends a command with a fresh id and resolves with its response. */
  request(command: Frame): Promise<Frame> {
    const id = String(this.nextId++);
    const response = this.waitFor((f) => f.type === "response" && f.id === id);
    this.writeLine(JSON.stringify({ id, ...command }));
    return response;
  }

  /** Resolves with the first frame (already received or future) that matches. */
  waitFor(match: (f: Frame) => boolean): Promise<Frame> {
    const seen = this.frames.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** Resolves with the n-th (1-based) frame that matches. */
  async waitForNth(match: (f: Frame) => boolean, n: number): Promise<Frame> {
    for (;;) {
      const all = this.frames.filter(match);
      if (all.length >= n) return all[n - 1]!;
      await this.waitFor((f) => match(f) && !all.includes(f));
    }
  }

  /** Closes stdin and waits for the exit. */
  async close(): Promise<{ code: number; stderr: string }> {
    (this.proc.stdin as import("bun").FileSink).end();
    const code = await this.proc.exited;
    return { code, stderr: await this.stderrText };
  }
}

/** Writes a --mock-script file (one scripted model response per line) into `dir` and returns its path. */
export function mockScript(dir: string, turns: object[]): string {
  const path = join(dir, "script.jsonl");
  writeFileSync(path, turns.map((t) => JSON.stringify(t)).join("\n") + "\n");
  return path;
}
