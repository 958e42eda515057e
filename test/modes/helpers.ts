// An in-process runtime on the offline mock provider, in a temp $ZOT_HOME, for the mode tests.
import { startMockRuntime } from "../helpers/mock-runtime.ts";
import type { Runtime } from "../../src/runtime/runtime.ts";
import { tempDir } from "../helpers/temp.ts";

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
  const home = tempDir("zot-modes-");
  const runtime = await startMockRuntime(home, extra);
  return {
    runtime,
    home,
    dispose: async () => {
      await runtime.close();
    },
  };
}
