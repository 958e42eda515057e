import { expect, test } from "bun:test";
import { killTree } from "../../src/platform/process-tree.ts";
import { signallable } from "../../src/platform/signallable.ts";
import { waitFor } from "../helpers/wait.ts";

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("killTree ends a process group leader and the grandchild it started", async () => {
  const proc = Bun.spawn(["/bin/sh", "-c", "sleep 300 & echo $!; wait"], { stdout: "pipe", detached: true });
  const reader = proc.stdout.getReader();
  const { value } = await reader.read();
  const grandchild = Number(new TextDecoder().decode(value).trim());
  expect(alive(grandchild)).toBe(true);
  expect(killTree(proc.pid, "SIGKILL")).toBe(true);
  await proc.exited;
  await waitFor(() => !alive(grandchild));
  expect(killTree(proc.pid, "SIGKILL")).toBe(false);
});

test("no pid 0, 1 or non-integer is ever signalled: kill(-0) is the caller's own group, kill(-1) every process it may signal", async () => {
  expect([0, 1, -3, 2.5, Number.NaN, 2].map(signallable)).toEqual([false, false, false, false, false, true]);
  // Live for what cannot reach beyond the child: in a child leading its own group, a killTree(0) that got through would kill only it.
  const src = JSON.stringify(new URL("../../src/platform/process-tree.ts", import.meta.url).pathname);
  const script = `import { killTree } from ${src};\nconsole.log(JSON.stringify([0, -3, 2.5, Number.NaN].map((pid) => killTree(pid, "SIGKILL"))));`;
  const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe", detached: true });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect({ code, out: out.trim() }).toEqual({ code: 0, out: "[false,false,false,false]" });
});
