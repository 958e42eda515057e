// web_fetch against real HTTP servers on 127.0.0.1 (private addresses allowed in config.json, as
// the tests need them), plus the refusals of loopback by default and of what the config denies.
import { afterAll, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { webFetchTool, WEB_FETCH_MAX_CHARS } from "../../../src/agent/tools/web-fetch.ts";
import { isPrivateAddress } from "../../../src/agent/tools/web-address.ts";
import { modeVerdict } from "../../../src/agent/permission-modes.ts";
import type { ToolOutput } from "../../../src/agent/tool.ts";
import { tempDir } from "../../helpers/temp.ts";

let home: string;
beforeEach(() => {
  home = tempDir("zot-webfetch-");
  config({ allowPrivate: true });
});

function config(webFetch: object | null): void {
  writeFileSync(join(home, "config.json"), JSON.stringify(webFetch === null ? {} : { webFetch }));
}

const PAGE = `<!doctype html><html><head><title>Docs &amp; more</title><style>.x{color:red}</style>
<script>document.write("<p>not shown</p>")</script></head><body>
<h2>Install</h2><p>Run <code>zot --help</code> or read the <a href="/guide">guide</a>.</p>
<ul><li>fast</li><li>small</li></ul><pre>a &lt; b
  c</pre><table><tr><th>flag</th><th>meaning</th></tr><tr><td>-p</td><td>print</td></tr></table>
<p>caf&eacute; &#x2713;</p></body></html>`;

let seenHeaders: Headers | null = null;
const server: ReturnType<typeof Bun.serve> = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req): Response {
    const path = new URL(req.url).pathname;
    seenHeaders = req.headers;
    switch (path) {
      case "/page":
        return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
      case "/hop":
        return new Response(null, { status: 302, headers: { location: "/page" } });
      case "/to-creds":
        return new Response(null, { status: 301, headers: { location: `http://user:secret@127.0.0.1:${server.port}/page` } });
      case "/to-localhost":
        return new Response(null, { status: 302, headers: { location: `http://localhost:${server.port}/page` } });
      case "/loop":
        return new Response(null, { status: 302, headers: { location: "/loop" } });
      case "/image":
        return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), { headers: { "content-type": "image/png", "content-length": "7" } });
      case "/json":
        return Response.json({ ok: true, items: [1, 2] });
      case "/big":
        return new Response("x".repeat(WEB_FETCH_MAX_CHARS + 5000), { headers: { "content-type": "text/plain" } });
      case "/missing":
        return new Response("<html><body><p>no such page</p></body></html>", { status: 404, headers: { "content-type": "text/html" } });
      default:
        return new Response("?", { status: 500 });
    }
  },
});
const base = `http://127.0.0.1:${server.port}`;
afterAll(() => server.stop(true));

const fetchUrl = (url: string): Promise<ToolOutput> =>
  webFetchTool.execute({ url }, { cwd: home, signal: new AbortController().signal, progress: () => {}, home });
const text = (out: ToolOutput): string => out.content.map((c) => (c.type === "text" ? c.text : "")).join("");

test("an HTML page comes back as readable text: title, headings, links, lists, code, tables; scripts and styles dropped", async () => {
  const out = await fetchUrl(`${base}/page`);
  expect(out.isError).toBe(false);
  expect(text(out)).toBe(
    [
      `URL: ${base}/page`,
      "Title: Docs & more",
      "",
      "## Install",
      "",
      `Run \`zot --help\` or read the [guide](${base}/guide).`,
      "",
      "- fast",
      "- small",
      "",
      "```",
      "a < b",
      "  c",
      "```",
      "",
      "flag | meaning",
      "-p | print",
      "",
      "café ✓",
    ].join("\n"),
  );
  expect(seenHeaders?.get("cookie")).toBeNull();
  expect(seenHeaders?.get("authorization")).toBeNull();
});

test("redirects are followed and named; a redirect to a URL with credentials is refused", async () => {
  const out = await fetchUrl(`${base}/hop`);
  expect(text(out)).toStartWith(`URL: ${base}/page (redirected from ${base}/hop)`);
  const creds = await fetchUrl(`${base}/to-creds`);
  expect(creds.isError).toBe(true);
  expect(text(creds)).toBe("The page redirected to a URL that carries a user name or password; web_fetch sends no credentials, so it was not requested.");
  const loop = await fetchUrl(`${base}/loop`);
  expect(text(loop)).toBe(`${base}/loop redirected more than 5 times; stopped at ${base}/loop.`);
});

test("non-text content is refused with its type; JSON comes as it is; long text is cut with a note", async () => {
  const img = await fetchUrl(`${base}/image`);
  expect(img.isError).toBe(true);
  expect(text(img)).toBe(`${base}/image is image/png (7 bytes), not text; web_fetch reads only text pages (HTML, plain text, JSON, XML).`);
  expect(text(await fetchUrl(`${base}/json`))).toContain('{"ok":true,"items":[1,2]}');
  const big = text(await fetchUrl(`${base}/big`));
  expect(big).toContain(`[Text truncated: showing the first ${WEB_FETCH_MAX_CHARS} of ${WEB_FETCH_MAX_CHARS + 5000} characters.]`);
  const missing = await fetchUrl(`${base}/missing`);
  expect(missing.isError).toBe(true);
  expect(text(missing)).toContain("HTTP status: 404");
  expect(text(missing)).toContain("no such page");
});

test("loopback is refused by default, also by name, with the setting that allows it", async () => {
  config(null);
  const out = await fetchUrl(`${base}/page`);
  expect(out.isError).toBe(true);
  expect(text(out)).toBe(
    '127.0.0.1 is a loopback or private network address, which web_fetch refuses; set "webFetch": {"allowPrivate": true} in config.json to allow local and private addresses.',
  );
  const byName = text(await fetchUrl(`http://localhost:${server.port}/page`));
  expect(byName).toMatch(/^localhost \(it resolves to (127\.0\.0\.1|::1)\) is a loopback or private network address/);
});

test("the deny list is checked on every hop, and the allow list keeps out every other domain", async () => {
  config({ allowPrivate: true, deny: ["localhost"] });
  expect(text(await fetchUrl(`${base}/to-localhost`))).toBe("The page redirected to localhost, which is on the webFetch deny list in config.json.");
  config({ allowPrivate: true, allow: ["example.com"] });
  expect(text(await fetchUrl(`${base}/page`))).toBe("127.0.0.1 is not on the webFetch allow list in config.json (example.com).");
  expect(text(await fetchUrl("ftp://example.com/x"))).toBe("ftp://example.com/x is not an http or https URL; web_fetch reads only web pages.");
});

test("private, loopback, link-local and mapped addresses count as private; public ones do not", () => {
  for (const ip of [
    "127.0.0.1",
    "10.1.2.3",
    "172.20.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "64:ff9b::a00:1",
  ]) {
    expect([ip, isPrivateAddress(ip)]).toEqual([ip, true]);
  }
  for (const ip of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8", "172.32.0.1"]) expect([ip, isPrivateAddress(ip)]).toEqual([ip, false]);
});

test("web_fetch asks where a tool that is not a read asks, and plan mode refuses it", () => {
  const args = { url: "https://example.com" };
  expect(modeVerdict("ask", "web_fetch", args, home, home)).toBe("ask");
  expect(modeVerdict("auto-edit", "web_fetch", args, home, home)).toBe("ask");
  expect(modeVerdict("plan", "web_fetch", args, home, home)).toBe("refuse");
});
