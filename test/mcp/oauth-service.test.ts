// The client_credentials grant for headless use, against a real authorization server and a real
// protected MCP server on 127.0.0.1: a run gets its token itself from the configured client id and
// secret (HTTP Basic, or the form field when the server lists only that) or private key (a signed
// JWT assertion, ES256 or RS256, made with WebCrypto), with no login, no browser and nothing stored.
import { existsSync } from "node:fs";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { McpHost } from "../../src/mcp/host.ts";
import { authStorePath } from "../../src/platform/home.ts";
import { startMcpHttpServer, type McpHttpServer } from "../helpers/mcp-http-server.ts";
import { protect, startAuthServer, type AlgorithmOf, type AuthServer, type AuthServerOptions } from "../helpers/oauth-server.ts";
import { loadHost, signal, useScratch, writeList } from "./helpers.ts";

let host: McpHost | null = null;
let mcp: McpHttpServer | null = null;
let as: AuthServer | null = null;
const s = useScratch(async () => {
  await host?.shutdown();
  host = null;
  await mcp?.stop();
  mcp = null;
  await as?.stop();
  as = null;
});

async function run(o: AuthServerOptions, oauth: Record<string, unknown>, env: Record<string, string> = {}): Promise<McpHost> {
  const a = startAuthServer(o);
  as = a;
  mcp = startMcpHttpServer({ era: "modern", reply: "json", guard: protect(() => a, { toolScopes: { whoami: "mcp:tools" } }) });
  writeList(join(s.home, "mcp.json"), { svc: { type: "http", url: mcp.url, oauth: { grant_type: "client_credentials", ...oauth } } });
  host = await loadHost(s, { env: { ...process.env, ...env } });
  return host;
}

const tokenRequests = () => as!.requests.filter((r) => r.path === "/token");

async function whoami(h: McpHost): Promise<string> {
  return ((await h.callTool("mcp__svc__whoami", {}, { signal: signal() })).content[0] as { text: string }).text;
}

async function pem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await crypto.subtle.exportKey("pkcs8", key)).toString("base64");
  return `-----BEGIN PRIVATE KEY-----\n${der.replace(/.{64}/g, "$&\n")}\n-----END PRIVATE KEY-----\n`;
}

describe("with a client secret", () => {
  test("the run gets a token with HTTP Basic, for the resource and the configured scope, and calls the tool with it", async () => {
    const h = await run({ clients: { svc: "s3cret" } }, { client_id: "svc", client_secret: "${SVC_SECRET}", scopes: ["mcp:tools"] }, { SVC_SECRET: "s3cret" });
    expect(h.serverStates()[0]!).toMatchObject({ status: "ready" });
    const req = tokenRequests()[0]!;
    expect(req.form).toEqual({ grant_type: "client_credentials", resource: mcp!.url, scope: "mcp:tools" });
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from("svc:s3cret").toString("base64")}`);
    const token = [...as!.issued.keys()][0];
    expect(await whoami(h)).toBe(`you sent Bearer ${token}`);
    expect(h.serverStates()[0]!.auth).toMatch(new RegExp(`^oauth: client credentials \\(token from ${as!.issuer.replace(/[.]/g, "\\.")}, expires .+ UTC\\)$`));
    // Nothing to log in to, nothing kept.
    expect(existsSync(authStorePath(s.home))).toBe(false);
  });

  test("the secret goes as a form field when the server lists only client_secret_post", async () => {
    await run({ clients: { svc: "s3cret" }, authMethods: ["client_secret_post"] }, { client_id: "svc", client_secret: "s3cret" });
    const req = tokenRequests()[0]!;
    expect(req.headers.authorization).toBeUndefined();
    expect(req.form).toMatchObject({ grant_type: "client_credentials", client_id: "svc", client_secret: "s3cret" });
  });

  test("a refused secret fails the start with the server's OAuth error and says what to check", async () => {
    const h = await run({ clients: { svc: "s3cret" } }, { client_id: "svc", client_secret: "wrong" });
    const st = h.serverStates()[0]!;
    expect(st.status).toBe("failed");
    expect(st.error).toContain(
      `its client credentials did not get through (the token endpoint ${as!.issuer}/token refused the client credentials: invalid_client (wrong client secret)); check "client_id" and the secret or key of its "oauth" entry`,
    );
  });

  test("a token the server stops accepting is replaced by a new one and the request retried", async () => {
    const h = await run({ clients: { svc: "s3cret" } }, { client_id: "svc", client_secret: "s3cret", scopes: ["mcp:tools"] });
    expect(tokenRequests()).toHaveLength(1);
    as!.expireAll();
    expect(await whoami(h)).toBe(`you sent Bearer ${[...as!.issued.keys()].at(-1)}`);
    expect(tokenRequests()).toHaveLength(2);
  });
});

describe("with a private key (private_key_jwt)", () => {
  const KINDS: { alg: string; gen: () => Promise<CryptoKeyPair>; verify: AlgorithmOf }[] = [
    {
      alg: "ES256",
      gen: () => crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]),
      verify: { name: "ECDSA", hash: "SHA-256" },
    },
    {
      alg: "RS256",
      gen: () =>
        crypto.subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, [
          "sign",
          "verify",
        ]),
      verify: { name: "RSASSA-PKCS1-v1_5" },
    },
  ];
  for (const k of KINDS) {
    test(`a ${k.alg} key signs the assertion (iss and sub the client, aud the issuer), and the token opens the server`, async () => {
      const pair = await k.gen();
      const h = await run(
        { jwtClients: { "svc-jwt": { key: pair.publicKey, verify: k.verify } } },
        { client_id: "svc-jwt", private_key: "${SVC_KEY}", scopes: ["mcp:tools"] },
        { SVC_KEY: await pem(pair.privateKey) },
      );
      expect(h.serverStates()[0]!).toMatchObject({ status: "ready" });
      const req = tokenRequests()[0]!;
      expect(req.form).toMatchObject({
        grant_type: "client_credentials",
        client_id: "svc-jwt",
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      });
      const [header, claims] = String(req.form.client_assertion)
        .split(".")
        .slice(0, 2)
        .map((p) => JSON.parse(Buffer.from(p, "base64url").toString()));
      expect(header).toEqual({ alg: k.alg, typ: "JWT" });
      expect(claims).toMatchObject({ iss: "svc-jwt", sub: "svc-jwt", aud: as!.issuer });
      expect(await whoami(h)).toStartWith("you sent Bearer at-");
    });
  }

  test("a key in the old EC PEM form is refused with a sentence saying how to convert it", async () => {
    const h = await run({}, { client_id: "svc-jwt", private_key: "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----" });
    expect(h.serverStates()[0]!.error).toContain(
      'the private key is in the old EC/RSA PEM form; WebCrypto reads PKCS#8 ("BEGIN PRIVATE KEY"): convert it with openssl pkcs8 -topk8 -nocrypt',
    );
  });
});

test("client_credentials without a secret or key is an invalid entry, with a sentence saying what it needs", async () => {
  const h = await run({}, { client_id: "svc" });
  expect(h.serverStates()[0]!).toMatchObject({ status: "invalid" });
  expect(h.serverStates()[0]!.error).toContain('"oauth.grant_type": "client_credentials" needs "client_id" and either "client_secret" or "private_key"');
});
