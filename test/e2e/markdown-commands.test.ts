// Markdown slash commands through the built binary: -p, --json and RPC run the expanded prompt;
// project commands wait for workspace trust.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { jsonLines, useZotHome } from "./zot.ts";

const e2e = useZotHome({ prefix: "zot-mdcmd-e2e-", homeDir: "home" });

function file(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

test("-p runs a user command's prompt with its arguments filled in", async () => {
  file(join(e2e.home, "commands/greet.md"), "---\ndescription: greet someone\n---\nSay hello to $1 from $2.");
  const r = await e2e.run(["-p", "--provider", "mock", "/greet Ada London"], { cwd: e2e.root });
  expect(r.stderr).toBe("");
  expect(r.stdout).toBe("mock: Say hello to Ada from London.\n");
});

test("a project command in a folder: refused while untrusted, run with --trust as dir:name in --json", async () => {
  const project = join(e2e.root, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });
  file(join(project, ".claude/commands/ops/deploy.md"), "Deploy $ARGUMENTS now.");
  const refused = await e2e.run(["-p", "--provider", "mock", "/ops:deploy staging"], { cwd: project });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`the project commands in ${join(project, ".claude", "commands")} are not loaded because this folder is not trusted`);
  const r = await e2e.run(["--json", "--trust", "--provider", "mock", "/ops:deploy staging"], { cwd: project });
  expect(r.code).toBe(0);
  const events = jsonLines(r.stdout);
  expect(events.find((e) => e.type === "user_message")?.text).toBe("Deploy staging now.");
  expect(events.find((e) => e.type === "done")?.text).toBe("mock: Deploy staging now.");
});

test("RPC command runs a Markdown command as a prompt; events follow", async () => {
  file(join(e2e.home, "commands/explain.md"), "Explain $ARGUMENTS.");
  const rpc = e2e.rpc(["--provider", "mock"], { cwd: e2e.root });
  const res = await rpc.request({ type: "command", name: "explain", args: "the build" });
  expect(res).toMatchObject({ success: true, data: { markdown: true, prompt: "Explain the build.", started: true } });
  const done = await rpc.waitFor((f) => f.type === "done");
  expect(done.text).toBe("mock: Explain the build.");
  expect((await rpc.close()).code).toBe(0);
});
