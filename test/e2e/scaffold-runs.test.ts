// Scaffolded extensions running where a user runs them: a TypeScript or JavaScript extension on a
// machine with neither Bun nor Node (zot's own binary is the runtime), unscoped and under a scope;
// the Python SDK scaffold under a scope, started from another directory. Real `zot ext init`,
// real processes, the real kernel sandbox.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { landlockAbi } from "../../src/platform/landlock.ts";
import { ROOT, ZOT, useZotHome } from "./zot.ts";

const e2e = useZotHome({ prefix: "zot-scaffold-e2e-", homeDir: "home" });
const sandboxed = process.platform === "linux" && landlockAbi() >= 6;

/** `zot ext init NAME --lang LANG [more]` in the scratch directory; the extension's directory. */
async function init(name: string, lang: string, more: string[] = []): Promise<string> {
  const r = await e2e.run(["ext", "init", name, "--lang", lang, ...more], { cwd: e2e.root });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return join(e2e.root, name);
}

function scope(dir: string, permissions: Record<string, unknown>): void {
  const path = join(dir, "extension.json");
  const m = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  writeFileSync(path, JSON.stringify({ ...m, permissions }, null, 2));
}

/** A PATH with no bun, no node, nothing at all: the only program left is zot itself. */
function emptyPath(): string {
  const dir = join(e2e.root, "empty-bin");
  mkdirSync(dir, { recursive: true });
  return dir;
}

const callTool = (name: string, text: string) => `call ${name.replace(/-/g, "_")}_echo ${JSON.stringify({ text })}`;

describe("TypeScript and JavaScript extensions without Bun or Node installed", () => {
  for (const lang of ["ts", "node"]) {
    test(`the ${lang} scaffold runs on zot's own Bun runtime, the README and the log say so`, async () => {
      const dir = await init(`emb-${lang}`, lang);
      expect(readFileSync(join(dir, "README.md"), "utf8")).toContain("zot runs it with its own embedded Bun runtime");
      const r = await e2e.run(["-p", "--provider", "mock", "--permission-mode", "yolo", "-e", dir, callTool(`emb-${lang}`, `hello ${lang}`)], {
        env: { PATH: emptyPath() },
      });
      expect(r.stderr).not.toContain("failed");
      expect(r.stdout).toBe(`mock: tool emb_${lang}_echo returned: hello ${lang}\n`);
      const log = readFileSync(join(e2e.home, "logs", `ext-emb-${lang}.log`), "utf8");
      expect(log).toContain(`[zot] runtime: zot's own Bun (${ZOT}), as ${lang === "ts" ? "bun" : "node"} is not on PATH`);
    });
  }

  test("without the fallback an exec that is not on PATH is still an error naming it", async () => {
    const dir = await init("emb-py", "python");
    const r = await e2e.run(["ext", "doctor", "--json", "-e", dir], { env: { PATH: emptyPath() } });
    const [e] = JSON.parse(r.stdout).extensions;
    expect(e.status).toBe("invalid");
    expect(e.error).toContain(`"exec" is "python3", which was not found on PATH`);
  });

  test.skipIf(!sandboxed)("under a scope the embedded runtime is granted as the program, and the scope holds", async () => {
    const dir = await init("emb-scoped", "ts");
    scope(dir, { fs: { read: [], write: [] }, net: false, env: [], exec: false });
    writeFileSync(join(e2e.root, "secret.txt"), "top secret\n");
    const doctor = await e2e.run(["ext", "doctor", "--json", "-e", dir], { env: { PATH: emptyPath() } });
    const [e] = JSON.parse(doctor.stdout).extensions;
    expect(e.status).toBe("ready");
    expect(e.sandbox).toBe("enforced");
    expect(e.granted.programs).toContain(ZOT);
    const r = await e2e.run(["-p", "--provider", "mock", "--permission-mode", "yolo", "-e", dir, callTool("emb-scoped", "scoped hello")], {
      env: { PATH: emptyPath() },
    });
    expect(r.stdout).toBe("mock: tool emb_scoped_echo returned: scoped hello\n");
    const log = readFileSync(join(e2e.home, "logs", "ext-emb-scoped.log"), "utf8");
    expect(log).toMatch(/\[zot\] sandbox: Landlock ABI \d+ enforced, seccomp exec guard on/);

    // The same runtime, made to read outside its scope, is refused by the kernel.
    writeFileSync(
      join(dir, "index.ts"),
      `import { readFileSync } from "node:fs";\nlet text: string;\ntry { text = readFileSync(${JSON.stringify(join(e2e.root, "secret.txt"))}, "utf8"); } catch (err) { text = "denied: " + (err as NodeJS.ErrnoException).code; }\n` +
        readFileSync(join(dir, "index.ts"), "utf8").replace('String(args.text ?? "")', "text"),
    );
    const probe = await e2e.run(["-p", "--provider", "mock", "--permission-mode", "yolo", "-e", dir, callTool("emb-scoped", "x")], {
      env: { PATH: emptyPath() },
    });
    expect(probe.stdout).toBe("mock: tool emb_scoped_echo returned: denied: EACCES\n");
  });
});

describe.skipIf(!sandboxed)("the Python SDK scaffold under a scope", () => {
  test("zot ext init --lang python --sdk runs with permissions in its manifest, started from another directory", async () => {
    const dir = await init("py-sdk", "python", ["--sdk", join(ROOT, "sdk", "python")]);
    scope(dir, { fs: { read: [], write: [] }, net: false, env: [], exec: false });
    const elsewhere = join(e2e.root, "project");
    mkdirSync(elsewhere);
    const doctor = await e2e.run(["ext", "doctor", "--json", "-e", dir], { cwd: elsewhere });
    const [e] = JSON.parse(doctor.stdout).extensions;
    expect(e.status).toBe("ready");
    expect(e.sandbox).toBe("enforced");
    expect(e.tools.map((t: { name: string }) => t.name)).toEqual(["py_sdk_echo"]);
    const r = await e2e.run(["-p", "--provider", "mock", "--permission-mode", "yolo", "-e", dir, callTool("py-sdk", "from the sdk")], { cwd: elsewhere });
    expect(r.stderr).not.toContain("failed");
    expect(r.stdout).toBe("mock: tool py_sdk_echo returned: from the sdk\n");
    const log = readFileSync(join(e2e.home, "logs", "ext-py-sdk.log"), "utf8");
    expect(log).toMatch(/\[zot\] sandbox: Landlock ABI \d+ enforced/);
  });
});
