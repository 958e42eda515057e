// An in-process runtime on the offline mock provider, in a temp $ZOT_HOME, for the mode tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRuntime } from "../../src/agent/setup.ts";
import type { Runtime } from "../../src/agent/runtime.ts";

export type Captured = { out: string; err: string; io: { out(t: string): void; err(t: string): void } };

export function capture(): Captured {
  const c: Captured = {
    out: "",
    err: "",
    io: {
      out: (t) => void (c.out += t),
      err: (t) => void (c.err += t),
    },
  };
  return c;
}

export async function mockRuntime(extra: { mockScript?: string } = {}): Promise<{ runtime: Runtime; home: string; dispose: () => Promise<void> }> {
  const home = mkdtempSync(join(tmpdir(), "zot-modes-"));
  const created = await createRuntime({
    home,
    cwd: home,
    env: {},
    provider: "mock",
    appendSystemPrompt: [],
    maxSteps: 50,
    noTools: false,
    ext: [],
    noExt: true,
    noYolo: false,
    interactive: false,
    continue: false,
    noSession: true,
    ...extra,
  });
  if (!created.ok) throw new Error(created.error);
  const runtime = created.runtime;
  return {
    runtime,
    home,
    dispose: async () => {
      await runtime.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
