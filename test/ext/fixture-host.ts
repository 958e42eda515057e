// Shared set-up for host tests: a real Host on real fixture extensions, a temp $ZOT_HOME, and the
// intents it emitted. Waits are bounded polls for an outcome, never assertions about duration.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Host } from "../../src/ext/host.ts";
import type { HostTimings } from "../../src/ext/host.ts";
import type { LoadReport, UiIntent } from "../../src/ext/types.ts";
import { waitFor } from "../helpers/wait.ts";
import { tempDir } from "../helpers/temp.ts";
export { alive } from "../helpers/processes.ts";

export const FIXTURES = resolve(import.meta.dir, "../fixtures/ext");

/** Short shutdown deadlines keep the suite fast; everything else stays at its real default. */
export const FAST: Partial<HostTimings> = { shutdownGraceMs: 500, killAfterMs: 300 };

export type Harness = {
  host: Host;
  report: LoadReport;
  intents: UiIntent[];
  home: string;
  /** Waits until an intent matches (fails the test after `ms`). */
  intent: (pred: (i: UiIntent) => boolean, ms?: number) => Promise<UiIntent>;
  log: (name: string) => string;
  close: () => Promise<void>;
};

/** `names` are fixture directory names, or absolute paths. */
export async function start(
  names: string[],
  timings: Partial<HostTimings> = {},
  traceFile?: string,
  mask?: (text: string) => string,
  onSecret?: (value: string) => void,
): Promise<Harness> {
  const home = tempDir("zot-host-");
  const host = new Host({ ...FAST, ...timings });
  const intents: UiIntent[] = [];
  host.onIntent((i) => intents.push(i));
  const report = await host.load({
    extPaths: names.map((n) => resolve(FIXTURES, n)),
    noExt: true,
    cwd: home,
    home,
    info: { zotVersion: "9.9.9", provider: "test-provider", model: "test-model", cwd: home },
    traceFile,
    mask,
    ...(onSecret ? { onSecret } : {}),
  });
  return {
    host,
    report,
    intents,
    home,
    intent: (pred, ms = 15_000) => waitFor(() => intents.find(pred), ms),
    log: (name) => readFileSync(join(home, "logs", `ext-${name}.log`), "utf8"),
    close: async () => {
      await host.shutdown();
    },
  };
}
