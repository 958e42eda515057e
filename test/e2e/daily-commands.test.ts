// The everyday commands outside the TUI: `zot export SESSION --html/--md`, `zot -p "/cost"` and the
// other one-shot reports, the JSON mode's command_result, and the RPC commands get_cost,
// get_context, export, rename, add_dir and doctor — each over a real zot process and a real transcript.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionFiles, useZotHome } from "./zot.ts";
import { MODERN } from "../mcp/helpers.ts";

const e2e = useZotHome();
const MOCK = ["--provider", "mock"];

async function oneSession(prompt = "hello <b>there</b>"): Promise<string> {
  const r = await e2e.run(["-p", ...MOCK, prompt]);
  expect(r.code).toBe(0);
  const [file] = sessionFiles(e2e.home);
  return file!;
}

test("zot export writes a transcript as HTML or Markdown and prints where; bad arguments say what is wrong", async () => {
  const file = await oneSession();
  const id = file.split("/").pop()!.slice(0, 15);
  const html = await e2e.run(["export", id, "--html", "page.html"]);
  expect(html).toMatchObject({ code: 0, stdout: `${join(e2e.home, "page.html")}\n` });
  const page = readFileSync(join(e2e.home, "page.html"), "utf8");
  expect(page).toContain("hello &#60;b&#62;there&#60;/b&#62;");
  expect(page).toContain("<td>mock/mock</td>");
  const md = await e2e.run(["export", file, "--md=notes.md"]);
  expect(md.code).toBe(0);
  expect(readFileSync(join(e2e.home, "notes.md"), "utf8")).toContain("## Assistant (mock/mock)\n\nmock: hello <b>there</b>");

  expect(await e2e.run(["export", id])).toMatchObject({ code: 2, stderr: expect.stringContaining("say which format to write: --html FILE or --md FILE") });
  expect(await e2e.run(["export", "--html", "x.html"])).toMatchObject({ code: 2, stderr: expect.stringContaining("name the session to export") });
  expect(await e2e.run(["export", "nosuch", "--md", "x.md"])).toMatchObject({ code: 1, stderr: expect.stringContaining("no session of") });
}, 30_000);

test("zot -p runs /cost, /context, /export and /doctor on a continued session without the model", async () => {
  await oneSession();
  const cost = await e2e.run(["-p", "-c", ...MOCK, "/cost"]);
  expect(cost.code).toBe(0);
  expect(cost.stdout).toMatch(/mock\/mock\s+1 call /);
  const context = await e2e.run(["-p", "-c", ...MOCK, "/context"]);
  expect(context.stdout).toContain("messages (2)");
  const exported = await e2e.run(["-p", "-c", ...MOCK, "/export md out.md"]);
  expect(exported).toMatchObject({ code: 0, stdout: `${join(e2e.home, "out.md")}\n` });
  const bad = await e2e.run(["-p", "-c", ...MOCK, "/export pdf"]);
  expect(bad).toMatchObject({ code: 1, stderr: expect.stringContaining('unknown export format "pdf"') });
  const doctor = await e2e.run(["-p", ...MOCK, "/doctor"]);
  expect(doctor.code).toBe(0);
  expect(doctor.stdout).toContain("provider  mock/mock: not checked");
  const json = await e2e.run(["--json", "-c", ...MOCK, "/cost"]);
  const events = json.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(events.find((e) => e.type === "command_result")).toMatchObject({
    name: "cost",
    extension: "zot",
    action: "display",
    display: expect.stringContaining("mock/mock"),
  });
}, 30_000);

test("RPC get_cost, get_context, export, rename, add_dir and doctor answer with what the TUI shows", async () => {
  const rpc = e2e.rpc([...MOCK, "--sandbox", "workspace-write"], { env: { HOME: e2e.home } });
  await rpc.request({ type: "prompt", message: "first" });
  await rpc.waitForNth((f) => f.type === "done", 1);
  const cost = await rpc.request({ type: "get_cost" });
  expect(cost).toMatchObject({ success: true, data: { models: [{ provider: "mock", model: "mock", calls: 1 }] } });
  const context = await rpc.request({ type: "get_context" });
  expect(context).toMatchObject({ success: true, data: { window: 200_000 } });
  const kinds = (context.data as { parts: { kind: string }[] }).parts.map((p) => p.kind);
  expect(kinds).toEqual(["system", "tools", "messages"]);
  expect(await rpc.request({ type: "rename", title: "  RPC   work " })).toMatchObject({ success: true, data: { title: "RPC work" } });
  const exported = await rpc.request({ type: "export", format: "html", path: "s.html" });
  expect(exported).toMatchObject({ success: true, data: { path: join(e2e.home, "s.html"), format: "html" } });
  expect(readFileSync(join(e2e.home, "s.html"), "utf8")).toContain("<title>RPC work</title>");
  expect(await rpc.request({ type: "export", format: "pdf" })).toMatchObject({
    success: false,
    error: expect.stringContaining('"format" must be one of "md", "html"'),
  });
  const dir = join(e2e.root, "extra");
  mkdirSync(dir);
  expect(await rpc.request({ type: "add_dir", path: dir })).toMatchObject({ success: true });
  expect(await rpc.request({ type: "add_dir", path: join(e2e.root, "missing") })).toMatchObject({
    success: false,
    error: expect.stringContaining("does not exist"),
  });
  const doctor = await rpc.request({ type: "doctor" });
  expect(doctor).toMatchObject({ success: true, data: { ok: true, provider: "mock", reach: { kind: "unchecked" }, extensions: [] } });
}, 30_000);

test("/doctor asks the provider for its model list: a working key, a refused key and a server that is gone", async () => {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) =>
      new URL(req.url).pathname === "/v1/models" && req.headers.get("x-api-key") === "sk-good"
        ? Response.json({ data: [] })
        : new Response("no", { status: 401 }),
  });
  e2e.defer(() => server.stop(true));
  const base = `http://127.0.0.1:${server.port}`;
  const run = (key: string, url = base) => e2e.run(["-p", "--provider", "anthropic", "--base-url", url, "--api-key", key, "--no-session", "/doctor"]);
  const good = await run("sk-good");
  expect(good.code).toBe(0);
  expect(good.stdout).toContain(`provider  anthropic/`);
  expect(good.stdout).toContain(`reachable, the key works (HTTP 200 from ${base}/v1/models)`);
  const bad = await run("sk-bad");
  expect(bad.code).toBe(1);
  expect(bad.stdout).toContain(`reachable, but the key was refused (HTTP 401 from ${base}/v1/models)`);
  expect(bad.stdout).not.toContain("sk-bad");
  const gone = await run("sk-good", "http://127.0.0.1:9");
  expect(gone.code).toBe(1);
  expect(gone.stdout).toContain("NOT reachable:");
}, 30_000);

test("with an MCP server running, /context counts its tools as its own part and /doctor shows its block", async () => {
  writeFileSync(join(e2e.home, "mcp.json"), JSON.stringify({ mcpServers: { docs: { command: "python3", args: [MODERN] } } }));
  const rpc = e2e.rpc(MOCK, { env: { HOME: e2e.home } });
  const context = await rpc.request({ type: "get_context" });
  const parts = (context.data as { parts: { kind: string; label: string; tokens: number }[] }).parts;
  const mcp = parts.find((p) => p.kind === "mcp");
  expect(mcp?.label).toMatch(/^MCP server docs \(\d+ tools?\)$/);
  expect(mcp!.tokens).toBeGreaterThan(0);
  const doctor = await rpc.request({ type: "doctor" });
  expect(doctor).toMatchObject({ success: true, data: { mcp: { servers: [{ name: "docs", status: "ready" }] } } });
  expect((doctor.data as { text: string }).text).toContain("mcp:docs  ready");
}, 30_000);
