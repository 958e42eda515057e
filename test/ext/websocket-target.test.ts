// The manifest's "transport": what is accepted, and the one-sentence errors for what is not.
import { describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectPrints } from "../../src/ext/discovery.ts";
import { parseManifest } from "../../src/ext/install/manifest.ts";
import { effectiveScope } from "../../src/ext/sandbox/scope-policy.ts";
import type { DiscoveredExtension } from "../../src/ext/types.ts";
import { isLoopbackHost } from "../../src/ext/connection/websocket-target.ts";
import { tempDir } from "../helpers/temp.ts";

const PATH = "/exts/w/extension.json";
const parse = (m: Record<string, unknown>) => parseManifest(JSON.stringify({ name: "w", ...m }), PATH);
const errorOf = (m: Record<string, unknown>): string => {
  const r = parse(m);
  if (r.ok) throw new Error("expected an error");
  expect(r.error).toContain(PATH);
  return r.error;
};

describe("manifest transport", () => {
  test("a loopback ws:// URL with a token variable is a WebSocket extension with no exec", () => {
    const r = parse({ transport: { type: "websocket", url: "ws://127.0.0.1:7777/zot", token_env: "MY_TOKEN" } });
    expect(r.ok && r.manifest.transport).toEqual({ url: "ws://127.0.0.1:7777/zot", tokenEnv: "MY_TOKEN", allowRemote: false });
    expect(r.ok && r.manifest.exec).toBeNull();
  });

  test("localhost, ::1 and all of 127.0.0.0/8 count as loopback; other hosts do not", () => {
    for (const h of ["localhost", "LOCALHOST", "127.0.0.1", "127.8.9.10", "[::1]", "::1", "[::ffff:127.0.0.1]"]) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ["10.0.0.1", "128.0.0.1", "127.0.0", "localhost.example.com", "example.com", "[::2]", "0.0.0.0"]) expect(isLoopbackHost(h)).toBe(false);
  });

  test("a remote host needs allow_remote and wss://", () => {
    expect(errorOf({ transport: { type: "websocket", url: "ws://example.com/" } })).toContain(
      'field "transport.url" points to example.com, which is not this machine',
    );
    expect(errorOf({ transport: { type: "websocket", url: "ws://example.com/", allow_remote: true } })).toContain(
      'field "transport.url" must use wss:// to reach example.com',
    );
    const ok = parse({ transport: { type: "websocket", url: "wss://example.com/zot", allow_remote: true, token_env: "T" } });
    expect(ok.ok && ok.manifest.transport?.allowRemote).toBe(true);
  });

  test("exec and transport are mutually exclusive, and args and permissions do not apply", () => {
    expect(errorOf({ exec: "/bin/true", transport: { type: "websocket", url: "ws://127.0.0.1:1/" } })).toContain('field "transport" and "exec" are both set');
    expect(errorOf({ args: ["x"], transport: { type: "websocket", url: "ws://127.0.0.1:1/" } })).toContain('field "args" applies only to "exec"');
    expect(errorOf({ permissions: { net: false }, transport: { type: "websocket", url: "ws://127.0.0.1:1/" } })).toContain(
      "zot cannot sandbox a process it did not start",
    );
  });

  test("each malformed field is named", () => {
    expect(errorOf({ transport: "ws://127.0.0.1:1/" })).toContain('field "transport" must be an object');
    expect(errorOf({ transport: { type: "http", url: "ws://127.0.0.1:1/" } })).toContain('field "transport.type" must be "websocket"');
    expect(errorOf({ transport: { type: "websocket" } })).toContain('field "transport.url" must be a ws:// or wss:// URL');
    expect(errorOf({ transport: { type: "websocket", url: "not a url" } })).toContain("which is not a URL");
    expect(errorOf({ transport: { type: "websocket", url: "http://127.0.0.1:1/" } })).toContain("must start with ws:// or wss://");
    const withPassword = errorOf({ transport: { type: "websocket", url: "ws://me:hunter2@127.0.0.1:1/" } });
    expect(withPassword).toContain('field "transport.url" must not carry a user name or password');
    expect(withPassword).not.toContain("hunter2");
    expect(errorOf({ transport: { type: "websocket", url: "ws://127.0.0.1:1/", token_env: "has space" } })).toContain(
      'field "transport.token_env" must name an environment variable',
    );
    expect(errorOf({ transport: { type: "websocket", url: "ws://127.0.0.1:1/", allow_remote: "yes" } })).toContain(
      'field "transport.allow_remote" must be true or false',
    );
  });
});

describe("policy and trust for WebSocket extensions", () => {
  const manifest = () => {
    const r = parse({ transport: { type: "websocket", url: "ws://127.0.0.1:7777/" } });
    if (!r.ok) throw new Error(r.error);
    return r.manifest;
  };

  test('"unrestricted": "deny" refuses a WebSocket extension with a sentence that says zot cannot restrict it and how to allow it', () => {
    const refused = effectiveScope(manifest(), { unrestricted: "deny", permissions: new Map() });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toContain('extension "w" runs outside zot (WebSocket), so zot cannot restrict it');
    expect(!refused.ok && refused.error).toContain('"extensions.permissions.w" to "unrestricted"');
    const allowed = effectiveScope(manifest(), { unrestricted: "deny", permissions: new Map([["w", null]]) });
    expect(allowed).toEqual({ ok: true, permissions: null, overridden: true, warning: null });
  });

  test("workspace trust fingerprints a project WebSocket extension's whole manifest: a changed token_env is a change", () => {
    const dir = join(tempDir("zot-ws-trust-"), "w");
    mkdirSync(dir);
    const entryFor = (transport: object): DiscoveredExtension => {
      writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "w", transport }));
      return {
        name: "w",
        dir,
        manifestPath: join(dir, "extension.json"),
        source: "project",
        status: "spawn",
        error: null,
        manifest: manifest(),
        theme: null,
        warnings: [],
      };
    };
    try {
      const before = projectPrints([entryFor({ type: "websocket", url: "ws://127.0.0.1:7777/", token_env: "EDITOR_TOKEN" })])[0]!.print;
      const after = projectPrints([entryFor({ type: "websocket", url: "ws://127.0.0.1:7777/", token_env: "OTHER_TOKEN" })])[0]!.print;
      expect(after.name).toBe("w");
      expect(after.files["extension.json"]).not.toBe(before.files["extension.json"]);
    } finally {
      rmSync(join(dir, ".."), { recursive: true, force: true });
    }
  });

  test("token_env may not name a provider key variable", () => {
    for (const name of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "KIMI_API_KEY", "MOONSHOT_API_KEY"])
      expect(errorOf({ transport: { type: "websocket", url: "ws://127.0.0.1:1/", token_env: name } })).toContain(
        `field "transport.token_env" is ${name}, which holds a provider API key; zot sends no provider key to an extension`,
      );
  });
});
