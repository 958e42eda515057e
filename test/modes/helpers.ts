// An in-process runtime on the offline mock provider, in a temp $ZOT_HOME, for the mode tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockRuntime } from "../helpers/mock-runtime.ts";
import type { Runtime } from "../../src/runtime/runtime.ts";

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
  const runtime = await startMockRuntime(home, extra);
  return {
    runtime,
    home,
    dispose: async () => {
      await runtime.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
