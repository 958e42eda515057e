// Bad input from files and pipes never crashes zot: config.json values are checked like flags,
// piped stdin is capped, and a pipe that gives nothing is announced.
import { expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useZotHome, ZOT, zotEnv } from "./zot.ts";

const e2e = useZotHome();

for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
  test(`config.json naming "${name}" as the provider is ignored with a warning, and zot still answers`, async () => {
    writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ provider: name }));
    const r = await e2e.run(["-p", "--provider", "mock", "hello there"]);
    expect(r.stderr).not.toContain("internal error");
    expect(r.stderr).toContain(
      `zot: Ignoring "provider" in ${join(e2e.home, "config.json")}: it must be one of anthropic, openai, kimi, kimi-code, ollama, mock (got "${name}").`,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("hello there");
  });
}

test("an auth.json entry named like an Object member gives no credential", async () => {
  writeFileSync(join(e2e.home, "auth.json"), JSON.stringify({ constructor: { type: "api_key", key: "sk-nope-123456" } }));
  chmodSync(join(e2e.home, "auth.json"), 0o600);
  writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ provider: "mock" }));
  const r = await e2e.run(["-p", "hi"]);
  expect(r.stderr).not.toContain("internal error");
  // The entry is no key: with nothing else, a headless run stops and says how to add one.
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("No API key found for any provider");
});

test("piped input past 16 MiB is refused with a clear error instead of read without end", async () => {
  const proc = Bun.spawn(["/bin/sh", "-c", `yes | "$0" -p --provider mock summarize`, ZOT], {
    cwd: e2e.home,
    env: zotEnv(e2e.home),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(code).toBe(2);
  expect(stdout).toBe("");
  expect(stderr).toBe(
    "zot: the input piped on stdin is larger than 16 MiB, so zot stopped reading it; pass a smaller prompt, or save the input to a file and ask zot to read that file.\n",
  );
});

test("a pipe that gives nothing for 2 s is announced on stderr, and its later text is still the prompt", async () => {
  const proc = Bun.spawn([ZOT, "-p", "--provider", "mock"], { cwd: e2e.home, env: zotEnv(e2e.home), stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const stderr: string[] = [];
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of proc.stderr) stderr.push(decoder.decode(chunk));
  })();
  while (!stderr.join("").includes("reading the prompt from stdin")) await Bun.sleep(50);
  expect(stderr.join("")).toBe("zot: reading the prompt from stdin… (end it with Ctrl-D, or pass </dev/null to give none)\n");
  proc.stdin.write("late prompt\n");
  proc.stdin.end();
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  await reading;
  expect(code).toBe(0);
  expect(stdout).toContain("late prompt");
});
