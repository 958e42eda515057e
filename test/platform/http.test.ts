// The HTTP door against real servers on 127.0.0.1: two ports are two origins.
import { afterEach, expect, test } from "bun:test";
import { fetchPage, send } from "../../src/platform/http.ts";
import { startEndless, startTwoOrigins, type TwoOrigins } from "../helpers/two-origins.ts";

let servers: { stop(): void }[] = [];
afterEach(() => {
  for (const s of servers) s.stop();
  servers = [];
});
function two(status = 307): TwoOrigins {
  const t = startTwoOrigins(status);
  servers.push(t);
  return t;
}

test("a request with an authorization, x-api-key, cookie or custom header is not redirected to another origin", async () => {
  const t = two();
  const each: Record<string, string>[] = [{ authorization: "Bearer sk-1" }, { "x-api-key": "sk-2" }, { cookie: "s=3" }, { "X-Key": "sk-4" }];
  for (const headers of each) {
    const sent = await send(`${t.first}/v1/models`, { headers });
    expect(sent.ok).toBe(false);
    if (sent.ok) continue;
    expect(sent.kind).toBe("redirect");
    expect(sent.error).toBe(
      `${t.first} redirected the request (HTTP 307) to ${t.second}/v1/models, another origin; zot does not follow it (it would send the request's credentials there)`,
    );
  }
  expect(t.seen).toEqual([]);
});

test("a request with a body is not redirected to another origin either, whatever the status", async () => {
  for (const status of [301, 302, 303, 307, 308]) {
    const t = two(status);
    const sent = await send(`${t.first}/token`, { method: "POST", body: "code=secret", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(sent.ok ? "followed" : sent.kind).toBe("redirect");
    expect(t.seen).toEqual([]);
  }
});

test("a request with nothing of its own follows a redirect to another origin", async () => {
  const t = two();
  const sent = await send(`${t.first}/release/zot`, { headers: { accept: "application/json" } });
  expect(sent.ok).toBe(true);
  if (sent.ok) expect(sent.response.url).toBe(`${t.second}/release/zot`);
  expect(t.seen.map((s) => s.path)).toEqual(["/release/zot"]);
});

test("a credentialed request follows a redirect within its origin with the same method, headers and body", async () => {
  const seen: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/old") return new Response(null, { status: 307, headers: { location: "/new" } });
      seen.push(`${req.method} ${path} ${req.headers.get("x-api-key")} ${await req.text()}`);
      return new Response("ok");
    },
  });
  servers.push({ stop: () => server.stop(true) });
  const sent = await send(`http://127.0.0.1:${server.port}/old`, { method: "POST", headers: { "x-api-key": "k" }, body: "hi" });
  expect(sent.ok).toBe(true);
  expect(seen).toEqual(["POST /new k hi"]);
});

test("redirects are bounded, and never leave http(s)", async () => {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/file") return new Response(null, { status: 302, headers: { location: "file:///etc/passwd" } });
      return new Response(null, { status: 302, headers: { location: `/loop${path.length}` } });
    },
  });
  servers.push({ stop: () => server.stop(true) });
  const loop = await send(`http://127.0.0.1:${server.port}/a`);
  expect(loop.ok ? "" : loop.error).toContain("redirected the request (HTTP 302) more than 5 times");
  const file = await send(`http://127.0.0.1:${server.port}/file`);
  expect(file.ok ? "" : file.error).toContain("to file:///etc/passwd, which is not http(s); zot does not follow it");
});

test("with redirects refused, any redirect is a failure and nothing follows it", async () => {
  const t = two(302);
  const sent = await send(`${t.first}/.well-known/oauth-authorization-server`, { redirects: "refuse" });
  expect(sent.ok ? "" : sent.error).toBe(
    `${t.first} redirected the request (HTTP 302) to ${t.second}/.well-known/oauth-authorization-server; zot does not follow redirects here`,
  );
  expect(t.seen).toEqual([]);
});

test("an endless body stops at the cap with a clear error and the connection is closed", async () => {
  const endless = startEndless("application/json", "x".repeat(64 * 1024), '{"a":"');
  servers.push(endless);
  const sent = await send(endless.url, { headerTimeoutMs: 5000 });
  if (!sent.ok) throw new Error(sent.error);
  const read = await sent.response.readText(1024 * 1024);
  expect(read).toMatchObject({ ok: false, kind: "too_large", error: `the answer from ${endless.url} passed 1 MiB and was stopped` });
  // The server stops being asked for more once zot hangs up: its count settles near the cap.
  await Bun.sleep(200);
  const settled = endless.sent();
  await Bun.sleep(200);
  expect(endless.sent()).toBe(settled);
  expect(settled).toBeLessThan(64 * 1024 * 1024);
});

test("a line that never ends stops at the line cap with a clear error", async () => {
  const endless = startEndless("text/event-stream", "y".repeat(64 * 1024), "data: ");
  servers.push(endless);
  const sent = await send(endless.url);
  if (!sent.ok) throw new Error(sent.error);
  const lines: string[] = [];
  let error = "";
  try {
    for await (const line of sent.response.lines(512 * 1024)) lines.push(line);
  } catch (e) {
    error = (e as Error).message;
  }
  expect(lines).toEqual([]);
  expect(error).toBe(`${endless.url} sent a line longer than 512 KiB, so the stream was stopped`);
});

test("lines keep blank lines and strip carriage returns, across chunk boundaries", async () => {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch() {
      const parts = ["data: a", "b\r\n", "\r\n", "data: c\n\nlast"];
      return new Response(
        new ReadableStream({
          async pull(c) {
            const p = parts.shift();
            if (p === undefined) return c.close();
            c.enqueue(new TextEncoder().encode(p));
            await Bun.sleep(5);
          },
        }),
      );
    },
  });
  servers.push({ stop: () => server.stop(true) });
  const sent = await send(`http://127.0.0.1:${server.port}/`);
  if (!sent.ok) throw new Error(sent.error);
  const lines: string[] = [];
  for await (const line of sent.response.lines(1024)) lines.push(line);
  expect(lines).toEqual(["data: ab", "", "data: c", "", "last"]);
});

test("headers that never come and a body that goes quiet each fail after their timeout, naming the origin", async () => {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (new URL(req.url).pathname === "/slow") await Bun.sleep(3000);
      return new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode("{"));
          },
        }),
      );
    },
  });
  servers.push({ stop: () => server.stop(true) });
  const base = `http://127.0.0.1:${server.port}`;
  const slow = await send(`${base}/slow`, { headerTimeoutMs: 100 });
  expect(slow.ok ? "" : `${slow.kind}: ${slow.error}`).toBe(`timeout: ${base} did not answer within 0.1 s`);
  const quiet = await send(`${base}/quiet`, { headerTimeoutMs: 1000, idleTimeoutMs: 100 });
  if (!quiet.ok) throw new Error(quiet.error);
  expect(await quiet.response.readText(1024)).toEqual({ ok: false, kind: "idle", error: `${base} sent nothing for 0.1 s`, received: 1 });
});

test("a page is fetched without credentials across redirects, capped, and only over http(s)", async () => {
  const t = startTwoOrigins(302, () => new Response("<p>hello</p>", { headers: { "content-type": "text/html" } }));
  servers.push(t);
  const got = await fetchPage(`${t.first}/page`, { maxBytes: 1024, timeoutMs: 5000 });
  expect(got).toEqual({ ok: true, page: { status: 200, url: `${t.second}/page`, contentType: "text/html", text: "<p>hello</p>" } });
  expect(Object.keys(t.seen[0]!.headers).filter((h) => h === "authorization" || h === "cookie")).toEqual([]);
  const big = await fetchPage(`${t.first}/page`, { maxBytes: 5, timeoutMs: 5000 });
  expect(big).toEqual({ ok: false, error: `the answer from ${t.second} passed 5 bytes and was stopped` });
  expect(await fetchPage("file:///etc/passwd", { maxBytes: 5, timeoutMs: 5000 })).toEqual({ ok: false, error: "file:///etc/passwd is not an http(s) URL" });
});
