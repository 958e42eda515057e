// An extension author's whole journey through the built binary, for both SDKs: scaffold with
// `zot ext init`, rewrite the program on the SDK with a new tool, check it with `zot ext test`, call
// the tool in an offline agent run (`--provider mock`), install it, and find it ready in
// `zot ext doctor --json`, still working from its installed copy.
import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runZot, useZotHome } from "./zot.ts";

const e2e = useZotHome({ prefix: "zot-author-" });

type Journey = {
  lang: "ts" | "python";
  /** The scaffold's program file, replaced by an SDK-based one. */
  program: string;
  /** The program on the SDK: the scaffold's command and echo tool, plus the new tool `double`. */
  source: (name: string) => string;
};

const journeys: Journey[] = [
  {
    lang: "ts",
    program: "index.ts",
    source: (name) => `import { Extension, display, text } from ${JSON.stringify(join(ROOT, "sdk", "typescript", "src", "index.ts"))};

const ext = new Extension(${JSON.stringify(name)}, "0.1.0");
ext.command(${JSON.stringify(name)}, "say hello", (args) => display(args ? \`hello from ${name}: \${args}\` : "hello from ${name}"));
ext.tool("${name}_echo", "Echo text.", { type: "object", properties: { text: { type: "string" } } }, (args) => text(String(args.text ?? "")));
ext.tool("double", "Double a number.", { type: "object", properties: { x: { type: "number" } }, required: ["x"] }, (args) => {
  if (typeof args.x !== "number") throw new Error("x must be a number");
  return String(args.x * 2);
});
void ext.run();
`,
  },
  {
    lang: "python",
    program: "main.py",
    source: (name) => `import sys
sys.path.append(${JSON.stringify(join(ROOT, "sdk", "python"))})
from zot_ext import Extension, display, text

ext = Extension(${JSON.stringify(name)}, "0.1.0")


@ext.command(${JSON.stringify(name)}, "say hello")
def hello(args):
    return display("hello from ${name}: " + args if args else "hello from ${name}")


@ext.tool("${name}_echo", "Echo text.", {"type": "object", "properties": {"text": {"type": "string"}}})
def echo(args):
    return text(str(args.get("text", "")))


@ext.tool("double", "Double a number.", {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]})
def double(args):
    if not isinstance(args.get("x"), (int, float)):
        raise ValueError("x must be a number")
    return str(args["x"] * 2)


ext.run()
`,
  },
];

describe("the extension author's journey through dist/zot", () => {
  for (const j of journeys) {
    test(`a ${j.lang} extension goes from zot ext init to a ready SDK tool installed in ZOT_HOME`, async () => {
      const root = realpathSync(e2e.root);
      const home = join(root, "home");
      const work = join(root, "work");
      mkdirSync(work);
      const name = `my${j.lang}`;
      const ext = join(work, name);
      const at = { home, cwd: work };

      const made = await runZot(["ext", "init", name, "--lang", j.lang], at);
      expect(made.stderr).toBe("");
      expect(made.code).toBe(0);
      expect(made.stdout).toContain(`zot -p --provider mock --permission-mode yolo -e ${ext} 'call ${name}_echo {"text":"hi"}'`);

      const fresh = JSON.parse((await runZot(["ext", "doctor", "--json", "--no-ext", "-e", ext], at)).stdout);
      expect(fresh.extensions[0]).toMatchObject({ name, status: "ready", tools: [{ name: `${name}_echo` }] });

      // The author's edit: the program on the SDK with a new tool, and script lines exercising it.
      writeFileSync(join(ext, j.program), j.source(name));
      appendFileSync(
        join(ext, "test.jsonl"),
        [
          { send: { type: "tool_call", name: "double", args: { x: 21 } } },
          { expect: { type: "tool_result", id: "$last_id", content: [{ type: "text", text: "42" }] } },
          { send: { type: "tool_call", name: "double", args: { x: "nope" } } },
          { expect: { type: "tool_result", id: "$last_id", is_error: true } },
        ]
          .map((l) => JSON.stringify(l) + "\n")
          .join(""),
      );

      const tested = await runZot(["ext", "test", ext, join(ext, "test.jsonl"), "--json"], at);
      const report = JSON.parse(tested.stdout);
      expect(report.steps.filter((s: { status: string }) => s.status !== "pass")).toEqual([]);
      expect(report.registrations.tools.map((t: { name: string }) => t.name).sort()).toEqual(["double", `${name}_echo`]);
      expect(tested.code).toBe(0);

      const run = await runZot(["--permission-mode", "yolo", "-p", "--provider", "mock", "--no-ext", "-e", ext, 'call double {"x":1}'], at);
      expect(run.stdout).toContain("mock: tool double returned: 2");
      expect(run.code).toBe(0);

      const installed = await runZot(["ext", "install", ext], at);
      expect(installed.stderr).toBe("");
      expect(installed.code).toBe(0);

      const doctor = await runZot(["ext", "doctor", "--json"], at);
      const found = JSON.parse(doctor.stdout);
      expect(found.ok).toBe(true);
      expect(found.extensions).toHaveLength(1);
      expect(found.extensions[0]).toMatchObject({
        name,
        version: "0.1.0",
        dir: join(home, "extensions", name),
        source: "global",
        status: "ready",
        error: null,
        commands: [name],
      });
      expect(found.extensions[0].tools.map((t: { name: string }) => t.name).sort()).toEqual(["double", `${name}_echo`]);
      expect(doctor.code).toBe(0);

      // The installed copy, not the author's directory, answers once -e is gone.
      const fromHome = await runZot(["--permission-mode", "yolo", "-p", "--provider", "mock", 'call double {"x":5}'], at);
      expect(fromHome.stdout).toContain("mock: tool double returned: 10");
      expect(readFileSync(join(home, "extensions", name, j.program), "utf8")).toBe(j.source(name));
    });
  }
});

describe("zot ext init --sdk", () => {
  for (const lang of ["ts", "python"] as const) {
    test(`scaffolds a ${lang} extension on zot's SDK that passes zot ext test at once`, async () => {
      const dir = e2e.root;
      const at = { home: join(dir, "home"), cwd: dir };
      const made = await runZot(["ext", "init", `sdk${lang}`, "--lang", lang, "--sdk", ROOT], at);
      expect(made.code).toBe(0);
      expect(made.stdout).toContain(lang === "ts" ? "TypeScript SDK" : "Python SDK");
      const ext = join(dir, `sdk${lang}`);
      const tested = await runZot(["ext", "test", ext, join(ext, "test.jsonl")], at);
      expect(tested.code).toBe(0);
    });
  }
});
