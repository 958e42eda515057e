// An in-process runtime on the offline mock provider, for tests that drive the runtime without the
// binary. The defaults are a non-interactive run with no installed extensions and no session file;
// each test overrides only what it is about.
import { createRuntime, type RuntimeOptions } from "../../src/runtime/setup.ts";
import type { Runtime } from "../../src/runtime/runtime.ts";

/** The options startMockRuntime uses, for tests that call createRuntime themselves (to see its notices or errors). */
export function testRuntimeOptions(home: string, overrides: Partial<RuntimeOptions> = {}): RuntimeOptions {
  return {
    home,
    cwd: home,
    env: {},
    provider: "mock",
    appendSystemPrompt: [],
    maxSteps: 50,
    noTools: false,
    ext: [],
    noExt: true,
    // Tests drive tools through the mock; the ones about approvals choose their mode.
    permissionMode: "yolo",
    interactive: false,
    continue: false,
    noSession: true,
    ...overrides,
  };
}

export async function startMockRuntime(home: string, overrides: Partial<RuntimeOptions> = {}): Promise<Runtime> {
  const created = await createRuntime(testRuntimeOptions(home, overrides));
  if (!created.ok) throw new Error(created.error);
  return created.runtime;
}
