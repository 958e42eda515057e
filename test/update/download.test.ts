import { afterAll, expect, test } from "bun:test";
import { download } from "../../src/update/download.ts";

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  fetch(req): Response | Promise<Response> {
    const path = new URL(req.url).pathname;
    if (path === "/file") return new Response("0.3.0\n");
    if (path === "/moved") return Response.redirect("/file", 302);
    if (path === "/stall") {
      // Headers and a first chunk, then nothing: a download that stops making progress.
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode("partial"));
        },
      });
      return new Response(body);
    }
    if (path === "/huge") return new Response("z".repeat(4096));
    return new Response("gone", { status: 404 });
  },
});
afterAll(() => server.stop(true));
const url = (p: string) => `http://127.0.0.1:${server.port}${p}`;

test("a file is downloaded whole, following redirects", async () => {
  const got = await download(url("/moved"), 10_000, 1024);
  expect(got.ok && new TextDecoder().decode(got.bytes)).toBe("0.3.0\n");
});

test("an HTTP error names the URL and the status", async () => {
  expect(await download(url("/nope"), 10_000, 1024)).toEqual({
    ok: false,
    error: `the server answered ${url("/nope")} with HTTP 404 (check ZOT_INSTALL_BASE)`,
    status: 404,
  });
});

test("a body that stops arriving is given up after the stall timeout", async () => {
  expect(await download(url("/stall"), 1_000, 1024)).toEqual({
    ok: false,
    error: `no progress for 1 second while downloading ${url("/stall")} (check the connection, or raise ZOT_INSTALL_TIMEOUT)`,
  });
});

test("a server that is not there is named", async () => {
  const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const at = `http://127.0.0.1:${closed.port}/x`;
  closed.stop(true);
  const got = await download(at, 10_000, 1024);
  expect(got.ok).toBe(false);
  expect(!got.ok && got.error).toStartWith(`could not reach ${at} (`);
});

test("a file larger than its cap is stopped there, naming the URL", async () => {
  const got = await download(url("/huge"), 10_000, 1024);
  expect(got).toEqual({
    ok: false,
    error: `${url("/huge")} is larger than a release file can be (the answer from ${url("")} passed 1 KiB and was stopped; check ZOT_INSTALL_BASE)`,
  });
});
