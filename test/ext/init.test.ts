import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { makeCtx } from "../../src/cli/kit/context.ts";
import { init } from "../../src/cli/ext/init.ts";
import { cli, tempDir, type CliRun } from "./cli-helpers.ts";

const ROOT = join(import.meta.dir, "..", "..");

/** `init` with an SDK location, called directly: the same code `zot ext init … --sdk PATH` runs. */
async function initWithSdk(work: string, name: string, lang: string, sdk: string): Promise<CliRun> {
  let out = "";
  let err = "";
  const made = makeCtx(
    {
      env: { ...process.env, ZOT_HOME: join(work, "home") },
      cwd: work,
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
    },
    undefined,
  );
  if (!made.ok) throw new Error(made.error);
  const code = await init(made.ctx, name, lang, sdk);
  return { code, out, err };
}

/** Runs the scaffold's own test.jsonl and doctor on it; both must pass cleanly. */
async function expectWorking(work: string, name: string): Promise<void> {
  const home = join(work, "home");
  const dir = join(work, name);
  const tested = await cli(["test", dir, join(dir, "test.jsonl")], { home, cwd: work });
  expect(tested.out).not.toContain("FAIL");
  expect(tested.out).not.toContain("warn");
  expect(tested.code).toBe(0);
  const doctor = await cli(["doctor", "--json", "--no-ext", "-e", dir], { home, cwd: work });
  const report = JSON.parse(doctor.out);
  const command = name.replace(/\./g, "-");
  expect(report.extensions[0]).toMatchObject({
    name,
    status: "ready",
    commands: [command],
    tools: [{ name: `${command.replace(/-/g, "_")}_echo`, deferred: false }],
  });
  expect(doctor.code).toBe(0);
}

// The ts scaffold runs `bun` from PATH, as a user's would. The bun running these tests may be
// installed as `bun.exe` (the npm package) or started by full path, so put a `bun` link to it first.
const savedPath = process.env.PATH;
const binDir = tempDir("zot-bun-");
beforeAll(() => {
  symlinkSync(process.execPath, join(binDir, "bun"));
  process.env.PATH = `${binDir}${delimiter}${savedPath ?? ""}`;
});
afterAll(() => {
  process.env.PATH = savedPath;
});

describe("zot ext init", () => {
  for (const lang of ["ts", "python", "node", "sh", "sh-posix"]) {
    test(`the ${lang} scaffold passes zot ext test and zot ext doctor right away`, async () => {
      const work = tempDir();
      const name = `my.${lang}-ext`;
      const made = await cli(["init", name, "--lang", lang], { home: join(work, "home"), cwd: work });
      expect(made.err).toBe("");
      expect(made.code).toBe(0);
      for (const f of ["extension.json", "README.md", "test.jsonl"]) expect(existsSync(join(work, name, f))).toBe(true);
      await expectWorking(work, name);
    });
  }

  for (const lang of ["ts", "python", "node", "sh", "sh-posix"]) {
    test(`the raw ${lang} scaffold answers a tool it does not know with an is_error result`, async () => {
      const work = tempDir();
      await cli(["init", "raw", "--lang", lang], { home: work, cwd: work });
      const script = join(work, "unknown.jsonl");
      writeFileSync(
        script,
        [
          { send: { type: "tool_call", name: "nope", args: {} } },
          { expect: { type: "tool_result", id: "$last_id", is_error: true, content: [{ type: "text", text: "unknown tool nope" }] } },
        ]
          .map((l) => JSON.stringify(l))
          .join("\n"),
      );
      const r = await cli(["test", join(work, "raw"), script], { home: work, cwd: work });
      expect(r.out).not.toContain("FAIL");
      expect(r.code).toBe(0);
    });
  }

  for (const lang of ["sh", "sh-posix"]) {
    test(`the ${lang} scaffold echoes hostile text as valid JSON, unchanged, and shows a command's arguments`, async () => {
      const work = tempDir();
      await cli(["init", "shelly", "--lang", lang], { home: work, cwd: work });
      const hostile = [
        `say "hi" \\ and \\"`,
        "two\nlines\tand a tab",
        "$(touch pwned) `id` ${HOME} 'single'",
        "é 日本 🎉 \u0007 \u001b[31m",
        "",
        '{"text":"nested"}',
      ];
      const script = join(work, "hostile.jsonl");
      const steps: Record<string, unknown>[] = hostile.flatMap((text) => [
        { send: { type: "tool_call", name: "shelly_echo", args: { text } } },
        { expect: { type: "tool_result", id: "$last_id", content: [{ type: "text", text }] }, within_ms: 5000 },
      ]);
      steps.push(
        { send: { type: "command_invoked", name: "shelly", args: `a "quoted" \\ arg` } },
        { expect: { type: "command_response", id: "$last_id", action: "display", display: `hello from shelly: a "quoted" \\ arg` }, within_ms: 5000 },
      );
      writeFileSync(script, steps.map((l) => JSON.stringify(l)).join("\n") + "\n");
      const r = await cli(["test", join(work, "shelly"), script], { home: work, cwd: work });
      expect(r.out).not.toContain("FAIL");
      expect(r.code).toBe(0);
      expect(existsSync(join(work, "shelly", "pwned"))).toBe(false);
    });
  }

  test("the next steps and the README show how to test, run with the mock provider, add a tool and install", async () => {
    const work = tempDir();
    const r = await cli(["init", "steps", "--lang", "python"], { home: work, cwd: work });
    const dir = join(work, "steps");
    expect(r.out.split("\n").slice(2, 6)).toEqual([
      `  zot ext doctor -e ${dir}`,
      `  zot ext test ${dir} ${join(dir, "test.jsonl")}`,
      `  zot -p --provider mock --permission-mode yolo -e ${dir} 'call steps_echo {"text":"hi"}'`,
      `  zot ext install ${dir}`,
    ]);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme).toContain(`zot -p --provider mock --permission-mode yolo -e . 'call steps_echo {"text":"hi"}'`);
    expect(readme).toContain("## Add a tool");
    expect(readme).toContain("add a function to `TOOLS` in `main.py`");
    expect(readme).toContain("zot ext init steps-sdk --lang python --sdk /path/to/zot");
  });

  test("paths that need quoting are quoted in the printed next steps", async () => {
    const work = tempDir();
    const spaced = join(work, "my project");
    mkdirSync(spaced);
    const r = await cli(["init", "q", "--lang", "sh", "--cwd", spaced], { home: work, cwd: work });
    expect(r.out).toContain(`  zot ext doctor -e '${join(spaced, "q")}'\n`);
  });

  test("with the TypeScript SDK, the ts scaffold imports it by absolute path and passes zot ext test and doctor", async () => {
    const work = tempDir();
    const r = await initWithSdk(work, "sdk.ts", "ts", ROOT);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("created sdk.ts (ts, TypeScript SDK)");
    const entry = realpathSync(join(ROOT, "sdk", "typescript", "src", "index.ts"));
    expect(readFileSync(join(work, "sdk.ts", "index.ts"), "utf8")).toContain(`from ${JSON.stringify(entry)};`);
    expect(readFileSync(join(work, "sdk.ts", "README.md"), "utf8")).toContain("add another `ext.tool(…)` next to `sdk_ts_echo`");
    await expectWorking(work, "sdk.ts");
  });

  test("with the Python SDK, the python scaffold carries a copy of zot_ext beside it, needs nothing outside its directory, and passes zot ext test and doctor", async () => {
    const work = tempDir();
    const r = await initWithSdk(work, "sdk.py", "python", join(ROOT, "sdk", "python"));
    expect(r.code).toBe(0);
    const main = readFileSync(join(work, "sdk.py", "main.py"), "utf8");
    expect(main).not.toContain("sys.path");
    expect(main).not.toContain(ROOT);
    expect(main).toContain("from zot_ext import");
    expect(readFileSync(join(work, "sdk.py", "zot_ext.py"), "utf8")).toBe(readFileSync(join(ROOT, "sdk", "python", "zot_ext.py"), "utf8"));
    await expectWorking(work, "sdk.py");
  });

  test("an SDK that is not there, or a language without one, is refused in one sentence and nothing is written", async () => {
    const work = tempDir();
    const missing = await initWithSdk(work, "a", "ts", work);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(
      `zot: --sdk ${work}: no TypeScript SDK there (looked for ${join(work, "src/index.ts")} and ${join(work, "sdk/typescript/src/index.ts")}); pass a zot checkout or its sdk/typescript directory.\n`,
    );
    const wrongLang = await initWithSdk(work, "b", "sh", ROOT);
    expect(wrongLang.code).toBe(1);
    expect(wrongLang.err).toContain("--sdk works with --lang ts or python");
    const pyInTs = await initWithSdk(work, "c", "python", join(ROOT, "sdk", "typescript"));
    expect(pyInTs.code).toBe(1);
    expect(pyInTs.err).toContain("no Python SDK there");
    expect(readdirSync(work)).toEqual([]);
  });

  test("ts is the default language", async () => {
    const work = tempDir();
    expect((await cli(["init", "plain"], { home: work, cwd: work })).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(work, "plain", "extension.json"), "utf8"));
    expect(manifest).toMatchObject({ name: "plain", exec: "bun", args: ["index.ts"], language: "typescript", enabled: true });
  });

  test("the go scaffold writes sources and documents the build step", async () => {
    const work = tempDir();
    const r = await cli(["init", "gopher", "--lang", "go"], { home: work, cwd: work });
    expect(r.code).toBe(0);
    expect(r.out).toContain("go build -o gopher .");
    expect(readdirSync(join(work, "gopher")).sort()).toEqual([".gitignore", "README.md", "extension.json", "go.mod", "main.go", "test.jsonl"]);
    expect(readFileSync(join(work, "gopher", "README.md"), "utf8")).toContain("go build -o gopher .");
    expect(JSON.parse(readFileSync(join(work, "gopher", "extension.json"), "utf8")).exec).toBe("./gopher");
  });

  test("the directory is an ordinary one, not the private stage it was built in", async () => {
    const work = tempDir();
    await cli(["init", "perms", "--lang", "sh"], { home: work, cwd: work });
    expect(statSync(join(work, "perms")).mode & 0o777).toBe(0o755);
    expect(readdirSync(work).filter((n) => n.startsWith("."))).toEqual([]);
  });

  test("bad names, unknown languages and existing directories are refused without writing anything", async () => {
    const work = tempDir();
    const bad = await cli(["init", "Bad Name"], { home: work, cwd: work });
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^zot: /);
    const lang = await cli(["init", "x", "--lang", "cobol"], { home: work, cwd: work });
    expect(lang.code).toBe(1);
    expect(lang.err).toContain("cobol");
    expect(readdirSync(work)).toEqual([]);
    await cli(["init", "taken", "--lang", "sh"], { home: work, cwd: work });
    const again = await cli(["init", "taken", "--lang", "sh"], { home: work, cwd: work });
    expect(again.code).toBe(1);
    expect(again.err).toContain("already exists");
  });

  test("--cwd chooses where the extension is created", async () => {
    const work = tempDir();
    const other = tempDir();
    expect((await cli(["init", "elsewhere", "--lang", "sh", "--cwd", other], { home: work, cwd: work })).code).toBe(0);
    expect(existsSync(join(other, "elsewhere", "extension.json"))).toBe(true);
  });
});
