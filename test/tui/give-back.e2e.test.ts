// A prompt that got nothing back is not lost: cancelled while its request was still pending, or
// answered only by a final provider failure, it returns to the editor to send again or change.
import { expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { useTmux } from "./helpers/tmux.ts";

const tui = useTmux();
const EDITOR = /^› (.*)$/m;

/** The editor's line: the last "› " line on the screen (the prompt in the chat comes before it). */
const editorLine = (screen: string): string => [...screen.matchAll(new RegExp(EDITOR, "gm"))].pop()?.[1]?.trim() ?? "";

test("esc while the request is still pending puts the prompt back in the editor", async () => {
  // The model request never answers; the model listing (a GET) does.
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => (req.method !== "POST" ? Response.json({ data: [], has_more: false }) : new Promise<Response>(() => {})),
  });
  tui.defer(() => server.stop(true));
  const t = await tui.start({
    args: ["--provider", "anthropic", "--base-url", `http://127.0.0.1:${server.port}`, "--api-key", "sk-test-123456", "--model", "claude-sonnet-4-5"],
  });
  await t.waitFor("Ask anything", 30_000);
  t.send("explain the build script");
  await t.waitFor("working", 15_000);
  t.keys("Escape");
  const s = await t.waitFor("interrupted by user", 15_000);
  expect(editorLine(s)).toBe("explain the build script");
}, 60_000);

test("a final provider failure puts the prompt back; a reply that streamed does not", async () => {
  const script = join(tmpdir(), `zot-give-back-${process.pid}.jsonl`);
  writeFileSync(script, `${JSON.stringify({ error: "simulated outage" })}\n${JSON.stringify({ text: "all good" })}\n`);
  tui.defer(() => rmSync(script, { force: true }));
  const t = await tui.start({ args: ["--mock-script", script] });
  await t.waitFor("Ask anything", 30_000);
  t.send("first try");
  let s = await t.waitFor("simulated outage", 15_000);
  expect(editorLine(s)).toBe("first try");
  t.keys("Enter");
  s = await t.waitFor("all good", 15_000);
  await t.waitFor("Ask anything", 15_000);
  expect(editorLine(t.screen())).toBe("Ask anything · / commands · @ files");
}, 60_000);
