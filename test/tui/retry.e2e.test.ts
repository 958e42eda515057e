// A model request that is retried shows a countdown in the status bar and a note in the chat,
// instead of "working" with no word about why nothing arrives.
import { expect, test } from "bun:test";
import { anthropicEvents } from "../helpers/provider-server.ts";
import { useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

test("a retried request counts down to its next attempt in the status bar, then the answer arrives", async () => {
  let n = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // Only the model request fails: the background model listing (a GET) must not take the 503.
    fetch: (req) =>
      req.method !== "POST"
        ? Response.json({ data: [], has_more: false })
        : ++n === 1
          ? new Response("busy", { status: 503, headers: { "retry-after": "3" } })
          : new Response(anthropicEvents({ kind: "turn", text: "worth the wait" }, "claude-sonnet-4-5").join(""), {
              headers: { "content-type": "text/event-stream" },
            }),
  });
  tui.defer(() => server.stop(true));
  const t = await tui.start({
    args: ["--provider", "anthropic", "--base-url", `http://127.0.0.1:${server.port}`, "--api-key", "sk-test-123456", "--model", "claude-sonnet-4-5"],
  });
  await t.waitFor("Ask anything", 30_000);
  t.send("hello");
  const s = await t.waitFor(/retrying in [123] s \(attempt 2 of 3\)/, 30_000);
  expect(s).toContain("anthropic answered HTTP 503: busy; retrying (attempt 2 of 3)");
  await t.waitFor("worth the wait", 30_000);
});
