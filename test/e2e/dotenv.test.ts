// The compiled binary must not read a project's .env or bunfig.toml (Bun would by default): a
// repository zot works in could otherwise redirect $ZOT_HOME, inject keys or preload code.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useZotHome, ZOT, zotEnv } from "./zot.ts";

const e2e = useZotHome();

test("a project .env with ZOT_HOME and an API key does not redirect zot or change its provider", async () => {
  const state = join(e2e.root, "state");
  const elsewhere = join(e2e.root, "elsewhere");
  const project = join(e2e.root, "project");
  for (const d of [state, elsewhere, project]) mkdirSync(d);
  writeFileSync(join(project, ".env"), `ZOT_HOME=${elsewhere}\nANTHROPIC_API_KEY=sk-from-dotenv-0123456789\n`);
  writeFileSync(join(project, ".env.local"), `ZOT_HOME=${elsewhere}\n`);
  // ZOT_HOME must be unset for a .env value to matter (Bun never overrides a set variable); the
  // home then comes from XDG_STATE_HOME, inside the temp dir.
  const { ZOT_HOME: _unset, ...env } = zotEnv(state, { XDG_STATE_HOME: state });
  const proc = Bun.spawn([ZOT, "-p", "hello"], { cwd: project, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  // No key was found, so the .env key was not read either; the sentence names the real home's auth.json.
  expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
  expect(stderr).toContain(`No API key found for any provider`);
  expect(stderr).toContain(join(state, "zot", "auth.json"));
  expect(readdirSync(elsewhere)).toEqual([]);
});

test("a project bunfig.toml preload does not run", async () => {
  const project = join(e2e.root, "project");
  mkdirSync(project);
  const marker = join(e2e.root, "preloaded");
  writeFileSync(join(project, "preload.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`);
  writeFileSync(join(project, "bunfig.toml"), `preload = ["./preload.ts"]\n`);
  const r = await e2e.run(["-p", "--provider", "mock", "hello"], { cwd: project });
  expect(r).toMatchObject({ code: 0, stdout: "mock: hello\n" });
  expect(existsSync(marker)).toBe(false);
});
