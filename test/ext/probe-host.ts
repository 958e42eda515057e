// The probe extension (test/fixtures/ext/probe) loaded by a real Host with the scope under test:
// each call tries one access from inside the real sandbox and says what the kernel answered.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Host } from "../../src/ext/host.ts";
import { FAST, FIXTURES } from "./fixture-host.ts";

export type ProbeOptions = {
  /** Runs in the fresh extension directory before the manifest is written. */
  prepare?: ((dir: string) => void) | undefined;
  /** Manifest fields that replace the defaults (`exec`, `args`). */
  manifest?: Record<string, unknown>;
  /** The `$ZOT_HOME` to use; a fresh one under `root` by default. */
  home?: string;
  /** Where the extension directory is made; `root` by default. */
  parent?: string;
};

export async function probe(root: string, permissions: unknown, o: ProbeOptions = {}) {
  const parent = o.parent ?? root;
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, "ext-"));
  o.prepare?.(dir);
  const home = o.home ?? mkdtempSync(join(root, "home-"));
  copyFileSync(join(FIXTURES, "probe", "probe.py"), join(dir, "probe.py"));
  const manifest: Record<string, unknown> = { name: "probe", version: "1.0.0", exec: "/usr/bin/python3", args: ["probe.py"], ...o.manifest };
  if (permissions !== undefined) manifest.permissions = permissions;
  writeFileSync(join(dir, "extension.json"), JSON.stringify(manifest));
  const host = new Host(FAST);
  const report = await host.load({ extPaths: [dir], noExt: true, cwd: root, home, info: { zotVersion: "9", provider: "p", model: "m", cwd: root } });
  const state = host.states()[0]!;
  const attempt = async (action: string, target: string): Promise<string> => {
    const r = await host.callTool("probe", { action, target }, { signal: new AbortController().signal });
    return r.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  };
  return {
    dir,
    home,
    state,
    report,
    attempt,
    log: () => readFileSync(join(home, "logs", "ext-probe.log"), "utf8"),
    close: () => host.shutdown(),
  };
}
