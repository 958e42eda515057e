import { expect, test } from "bun:test";
import { killTree } from "../../src/platform/process-tree.ts";
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
