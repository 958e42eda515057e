// What one test starts (a provider server, a process, a temp dir) is registered here and torn down
// after that test, newest first, so end-to-end files share one set-up instead of each keeping its
// own `let server` and afterEach. Call it at the top of a file (or a describe block).
import { afterEach } from "bun:test";
import { startProviderServer, type ProviderServer, type ServerOptions } from "./provider-server.ts";

export type TestScope = {
  /** Runs `fn` after this test, before whatever was registered earlier. */
  defer(fn: () => unknown): void;
  /** A provider server on 127.0.0.1 that stops after this test. */
  serve(opts?: ServerOptions): ProviderServer;
  /** The server `serve` last started in this test. */
  readonly server: ProviderServer;
};

export function useTestScope(): TestScope {
  let due: (() => unknown)[] = [];
  let current: ProviderServer | undefined;
  afterEach(async () => {
    const now = due.reverse();
    due = [];
    current = undefined;
    // Every clean-up runs even when one fails; the first failure fails the test.
    const failures: unknown[] = [];
    for (const fn of now)
      await Promise.resolve()
        .then(fn)
        .catch((err: unknown) => failures.push(err));
    if (failures.length > 0) throw failures[0];
  });
  return {
    defer: (fn) => void due.push(fn),
    serve(opts) {
      const server = startProviderServer(opts);
      due.push(() => server.stop());
      current = server;
      return server;
    },
    get server() {
      if (!current) throw new Error("this test has not started a provider server (call serve first)");
      return current;
    },
  };
}
