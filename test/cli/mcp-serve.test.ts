// `zot mcp serve`'s own options: the address --http takes, and the usage errors that stop it
// before anything starts (each a sentence saying what was wrong and what to do).
import { expect, test } from "bun:test";
import { parseAddress, runMcpServe } from "../../src/cli/mcp-serve.ts";

test("--http takes PORT, :PORT, HOST:PORT and [IPv6]:PORT, on loopback unless a host is given", () => {
  expect(parseAddress("8765")).toEqual({ ok: true, hostname: "127.0.0.1", port: 8765 });
  expect(parseAddress(":0")).toEqual({ ok: true, hostname: "127.0.0.1", port: 0 });
  expect(parseAddress("0.0.0.0:9000")).toEqual({ ok: true, hostname: "0.0.0.0", port: 9000 });
  expect(parseAddress("[::1]:9000")).toEqual({ ok: true, hostname: "::1", port: 9000 });
  expect(parseAddress("localhost")).toEqual({
    ok: false,
    error: '--http "localhost" is not [HOST:]PORT (e.g. --http 127.0.0.1:8765, or --http 0 for a free port on 127.0.0.1)',
  });
  expect(parseAddress("70000").ok).toBe(false);
});

async function serve(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; err: string }> {
  let err = "";
  const input = (async function* () {})();
  const code = await runMcpServe(argv, { out: () => {}, err: (t) => (err += t), input, env });
  return { code, err };
}

test("usage errors name what was wrong", async () => {
  expect(await serve(["fix", "the", "bug"])).toEqual({
    code: 2,
    err: 'zot: zot mcp serve takes no prompt ("fix the bug"); MCP clients call its tools; usage: zot mcp serve [--http [HOST:]PORT --token-env VAR] [zot options] (zot mcp serve --help)\n',
  });
  expect((await serve(["--token-env", "T"])).err).toContain("zot: --token-env applies to --http only");
  expect((await serve(["--http", "0", "--token-env", "ZOT_NOPE"])).err).toContain("zot: --token-env ZOT_NOPE: the variable ZOT_NOPE is not set or empty");
  expect((await serve(["--http"])).err).toContain("zot: --http needs a value");
  expect((await serve(["-p"])).err).toContain("zot: zot mcp serve takes no mode or session options");
  expect((await serve(["--no-such-flag"])).code).toBe(2);
});

test("--help explains the server and how to add it to Claude Code", async () => {
  let out = "";
  const code = await runMcpServe(["--help"], { out: (t) => (out += t), err: () => {}, input: (async function* () {})(), env: {} });
  expect(code).toBe(0);
  expect(out).toContain("claude mcp add zot -- zot mcp serve");
});
