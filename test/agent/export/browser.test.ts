// The HTML export in a real browser (Debian's Chromium, headless, over the DevTools protocol): the
// page renders with its text, a tool call's <details> opens on a mouse click, hostile transcript text
// stays text, and the page asks for nothing but itself — checked against a real HTTP server the
// hostile text points at.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeExport } from "../../../src/agent/export/export-file.ts";
import { Browser } from "./cdp.ts";
import { conversation } from "./fixture.ts";
import { tempDir } from "../../helpers/temp.ts";

let dir: string;
let browser: Browser;
let hits: string[];
let server: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  dir = tempDir("zot-export-browser-");
  hits = [];
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      hits.push(req.url);
      return new Response("hit");
    },
  });
  browser = await Browser.launch();
});

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
});

test("the exported page renders the conversation, opens a tool call on click, prints its collapsed blocks open, runs no script and fetches nothing", async () => {
  const beacon = `http://127.0.0.1:${server.port}`;
  const r = writeExport("html", conversation(beacon), join(dir, "session.html"), dir, new Date("2026-12-02T00:00:00Z"));
  expect(r.ok).toBe(true);
  const page = `file://${join(dir, "session.html")}`;
  await browser.open(page);

  const text = await browser.eval<string>("document.body.innerText");
  expect(text).toContain("Fix the greeting in hello.ts");
  expect(text).toContain("Done: the greeting now says hello.");
  expect(text).toContain("anthropic/claude-test");
  expect(text).toContain("openai/gpt-test");
  expect(text).toContain("$0.0084");
  // The hostile text is shown as the characters it is.
  expect(text).toContain(`<script>window.__pwned = 1</script>`);
  expect(await browser.eval<number>("document.querySelectorAll('script, iframe, a[href], img:not([src^=\"data:image/png;base64,\"])').length")).toBe(0);
  expect(await browser.eval<unknown>("window.__pwned ?? null")).toBe(null);

  // The attached PNG is drawn from its data: URI (a broken image has no natural width).
  expect(await browser.eval<number[]>("[...document.images].map((i) => i.naturalWidth)")).toEqual([4]);

  // Tool calls start collapsed; a click on the summary opens one and shows its coloured diff.
  const diffVisible =
    "(() => { const d = document.querySelector('details.tool-call'); const add = d.querySelector('.add'); return { open: d.open, shown: add.checkVisibility(), text: add.textContent }; })()";
  expect(await browser.eval<{ open: boolean; shown: boolean }>(diffVisible)).toMatchObject({ open: false, shown: false });
  await browser.click("details.tool-call > summary");
  expect(await browser.eval<{ open: boolean; shown: boolean; text: string }>(diffVisible)).toEqual({ open: true, shown: true, text: '+console.log("hello")' });
  const colours = await browser.eval<{ add: string; plain: string }>(
    "(() => { const d = document.querySelector('details.tool-call'); return { add: getComputedStyle(d.querySelector('.add')).backgroundColor, plain: getComputedStyle(d.querySelector('pre span:not([class])')).backgroundColor }; })()",
  );
  expect(colours.add).not.toBe(colours.plain);
  const shot = await browser.screenshot();
  expect(shot.subarray(1, 4).toString()).toBe("PNG");
  writeFileSync(join(dir, "shot.png"), shot);

  // On paper every collapsed block is open: the print style shows a closed tool call's output.
  const closedOutput =
    "(() => { const d = [...document.querySelectorAll('details.tool-call')].find((x) => !x.open); return d.querySelector('pre').checkVisibility(); })()";
  expect(await browser.eval<boolean>(closedOutput)).toBe(false);
  await browser.send("Emulation.setEmulatedMedia", { media: "print" });
  expect(await browser.eval<boolean>(closedOutput)).toBe(true);
  await browser.send("Emulation.setEmulatedMedia", { media: "" });

  // Nothing left the page: no request but the page itself and its inline image, none to the beacon.
  expect(browser.requests.filter((u) => u !== page && !u.startsWith("data:image/png;base64,"))).toEqual([]);
  expect(hits).toEqual([]);
}, 60_000);
