// /model shows the catalog merged with the provider's live model list, each row with its source.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

test("/model lists the live models discovered in the background, marked live beside the built-in ones", async () => {
  const server = tui.serve({ models: ["claude-sonnet-5-5", "claude-fable-5-2"] });
  const t = await tui.start({ args: ["--provider", "anthropic", "--api-key", "sk-ant-tui", "--base-url", server.url] });
  await t.waitFor("Ask anything");
  // The cache is written just before the list is merged, in one step of zot's event loop.
  await waitFor(() => existsSync(join(t.home, "models-cache.json")));
  t.send("/model");
  await t.waitFor("type to filter");
  t.type("fable-5");
  const s = await t.waitFor(/anthropic\/claude-fable-5-2.*live/);
  expect(s).toMatch(/anthropic\/claude-fable-5-1.*builtin/);
}, 30_000);
