// A secret setting changed while zot runs joins the mask before anything writes it: the
// `settings_changed` frame in --ext-trace, the hello_ack of a restart, the extension's log.
// The real `echoer` fixture prints its key to stderr on every change.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { redactSecrets } from "../../src/redact.ts";
import { start, type Harness } from "./fixture-host.ts";
import { waitFor } from "../helpers/wait.ts";
import { tempDir } from "../helpers/temp.ts";

let h: Harness | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await h?.close();
  h = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

test("secrets set at runtime are masked in the trace and the extension log, the first one and a changed one", async () => {
  const dir = tempDir("zot-secret-trace-");
  dirs.push(dir);
  const trace = join(dir, "trace.jsonl");
  const secrets: string[] = [];
  h = await start(
    ["echoer"],
    {},
    trace,
    (text) => redactSecrets(text, secrets),
    (v) => void secrets.push(v),
  );
  expect(h.host.states()[0]?.status).toBe("needs_config");

  const first = "sk-first-secret-value-0001";
  expect((await h.host.configure("echoer", [["api_key", first]], [])).ok).toBe(true);
  await waitFor(() => h!.log("echoer").includes("started with key"), 10_000);
  const second = "sk-second-secret-value-0002";
  expect((await h.host.configure("echoer", [["api_key", second]], [])).ok).toBe(true);
  await waitFor(() => h!.log("echoer").includes("changed to key"), 10_000);
  await h.host.shutdown();

  const log = h.log("echoer");
  const traced = readFileSync(trace, "utf8");
  expect(traced).toContain('"settings_changed"');
  for (const text of [log, traced]) {
    expect(text).not.toContain(first);
    expect(text).not.toContain(second);
  }
  expect(log).toContain("changed to key sk-s…[redacted]");
});
