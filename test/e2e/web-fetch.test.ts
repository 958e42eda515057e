// web_fetch through the built binary: a page from a real server on 127.0.0.1 reaches the model as
// text when config.json allows private addresses, and is refused without that setting.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, mockScript, useZotHome } from "./zot.ts";

const e2e = useZotHome({ prefix: "zot-webfetch-e2e-" });

async function fetchThroughZot(allowPrivate: boolean): Promise<{ result: Record<string, unknown>; requests: number }> {
  let requests = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => {
      requests++;
      return new Response("<h1>Release notes</h1><p>All &amp; more.</p>", { headers: { "content-type": "text/html" } });
    },
  });
  e2e.defer(() => server.stop(true));
  writeFileSync(join(e2e.home, "config.json"), JSON.stringify(allowPrivate ? { webFetch: { allowPrivate: true } } : {}));
  const path = mockScript(e2e.root, [{ tool_calls: [{ name: "web_fetch", args: { url: `http://127.0.0.1:${server.port}/notes` } }] }, { text: "read it" }]);
  const r = await e2e.run(["--mock-script", path, "--json", "read the notes"], { cwd: e2e.root });
  expect(r.code).toBe(0);
  return { result: jsonLines(r.stdout).find((e) => e.type === "tool_result")!, requests };
}

test("--json: the page arrives as Markdown-like text when private addresses are allowed", async () => {
  const { result, requests } = await fetchThroughZot(true);
  expect(requests).toBe(1);
  expect(result.is_error).toBe(false);
  expect(JSON.stringify(result.content)).toContain("# Release notes\\n\\nAll & more.");
});

test("--json: without the setting the loopback server is refused and nothing is requested", async () => {
  const { result, requests } = await fetchThroughZot(false);
  expect(requests).toBe(0);
  expect(result.is_error).toBe(true);
  expect(JSON.stringify(result.content)).toContain("127.0.0.1 is a loopback or private network address, which web_fetch refuses");
});
