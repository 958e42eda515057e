// The seccomp rule builder on the real kernel: a child process installs rules and makes the calls.
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { seccompAvailable } from "../../src/platform/seccomp.ts";

const FIXTURE = resolve(import.meta.dir, "../fixtures/seccomp/socket-rule.ts");

describe.skipIf(!seccompAvailable())("seccomp rules", () => {
  test("socket() is denied for the listed address families only, and a denied call gets the rule's errno", async () => {
    const p = Bun.spawn([process.execPath, FIXTURE], { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ inet: "errno 1", inet6: "errno 1", unix: "ok", memfd: "errno 38" });
  });
});
