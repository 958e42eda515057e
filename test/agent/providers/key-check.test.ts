import { afterAll, expect, test } from "bun:test";
import { probeKey, probeRequest } from "../../../src/agent/providers/key-check.ts";
import { startTwoOrigins } from "../../helpers/two-origins.ts";

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    if (path.startsWith("/slow")) await Bun.sleep(2000);
    if (path.startsWith("/broken")) return new Response("oops", { status: 500 });
    return req.headers.get("x-api-key") === "good" || req.headers.get("authorization") === "Bearer good"
      ? Response.json({ data: [] })
      : new Response("no", { status: 401 });
  },
});
afterAll(() => server.stop(true));
const base = `http://127.0.0.1:${server.port}`;

test("the check asks each provider's model list with its own auth header", () => {
  expect(probeRequest("anthropic", "k")).toEqual({
    url: "https://api.anthropic.com/v1/models",
    headers: { "x-api-key": "k", "anthropic-version": "2023-06-01" },
  });
  expect(probeRequest("openai", "k")).toEqual({ url: "https://api.openai.com/v1/models", headers: { authorization: "Bearer k" } });
  expect(probeRequest("anthropic", "k", "http://h/v1/")?.url).toBe("http://h/v1/models");
  expect(probeRequest("ollama", "k")).toBeNull();
});

test("a good key passes, a refused one is reported as refused", async () => {
  expect(await probeKey(probeRequest("anthropic", "good", base)!)).toMatchObject({ kind: "ok", status: 200 });
  expect(await probeKey(probeRequest("openai", "bad", `${base}/v1`)!)).toMatchObject({ kind: "rejected", status: 401 });
});

test("a server error, a dead port or a timeout give no verdict on the key", async () => {
  expect(await probeKey(probeRequest("openai", "good", `${base}/broken`)!)).toMatchObject({ kind: "unknown", why: "HTTP 500" });
  expect(await probeKey(probeRequest("openai", "good", `${base}/slow`)!, 100)).toMatchObject({ kind: "unknown", why: "no answer within 0.1 s" });
  const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const dead = `http://127.0.0.1:${closed.port}`;
  closed.stop(true);
  expect(await probeKey(probeRequest("openai", "good", dead)!)).toMatchObject({ kind: "unknown" });
});

test("a cancelled check ends at once with no verdict", async () => {
  const cancel = new AbortController();
  const pending = probeKey(probeRequest("openai", "good", `${base}/slow`)!, 5000, cancel.signal);
  cancel.abort();
  expect(await pending).toMatchObject({ kind: "unknown", why: "cancelled" });
});

test("a base URL that redirects to another origin gets no verdict, and the key never reaches that origin", async () => {
  const t = startTwoOrigins(307);
  try {
    for (const provider of ["anthropic", "openai"]) {
      const got = await probeKey(probeRequest(provider, "sk-secret", `${t.first}/v1`)!);
      expect(got).toMatchObject({ kind: "unknown" });
      if (got.kind === "unknown") expect(got.why).toContain("another origin; zot does not follow it");
    }
    expect(t.seen).toEqual([]);
  } finally {
    t.stop();
  }
});
