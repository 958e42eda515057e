// The files `zot ext init` writes for each language. By default a scaffold speaks the raw protocol
// with no dependencies; with an SDK (ts and python) it is written on the zot SDK instead. Either way
// it registers one command and one tool and ships a `zot ext test` script that passes right away.
import rawGo from "./scaffolds/raw.go" with { type: "text" };
import rawMjs from "./scaffolds/raw.mjs" with { type: "text" };
import rawPy from "./scaffolds/raw.py" with { type: "text" };
import rawSh from "./scaffolds/raw.sh" with { type: "text" };
import rawPosixSh from "./scaffolds/raw-posix.sh" with { type: "text" };
import * as rawTs from "./scaffolds/raw.ts" with { type: "text" };
import sdkPy from "./scaffolds/sdk.py" with { type: "text" };
import * as sdkTs from "./scaffolds/sdk.ts" with { type: "text" };

export const LANGUAGES = ["ts", "python", "go", "node", "sh", "sh-posix"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The languages that have a zot SDK, and so accept `--sdk`. */
export const SDK_LANGUAGES = ["ts", "python"] as const;
export type SdkLanguage = (typeof SDK_LANGUAGES)[number];

/** Where the scaffold imports the SDK from: the TS SDK's entry file, or the directory holding zot_ext.py. */
/** `module`: the Python SDK's source, copied beside the extension so it needs nothing outside its directory. */
export type SdkLocation = { lang: "ts"; entry: string } | { lang: "python"; dir: string; module: string };

export type ScaffoldFile = { path: string; content: string; mode?: number };

export type Scaffold = {
  files: ScaffoldFile[];
  /** Shown after creation; non-empty when the extension must be built before it can run. */
  build: string | null;
};

type Names = { name: string; command: string; tool: string };

/** Command and tool names derived from the extension name (which may contain "."). */
export function namesFor(name: string): Names {
  const command = name.replace(/[^A-Za-z0-9_-]/g, "-");
  const tool = `${command.replace(/-/g, "_").slice(0, 59)}_echo`;
  return { name, command, tool };
}

export function scaffold(name: string, lang: Language, sdk?: SdkLocation): Scaffold {
  const n = namesFor(name);
  const program = sdk ? SDK_FILES[sdk.lang](n, sdk) : LANG_FILES[lang](n);
  const files = [...program, { path: "test.jsonl", content: testScript(n) }, { path: "README.md", content: readme(n, lang, sdk) }];
  return { files, build: lang === "go" ? `go build -o ${name} .` : null };
}

/** The prompt that makes the offline `mock` provider call the scaffold's tool once. */
export function mockPrompt(name: string): string {
  return `call ${namesFor(name).tool} {"text":"hi"}`;
}

function manifest(n: Names, exec: string, args: string[], language: string): string {
  return JSON.stringify({ name: n.name, version: "0.1.0", description: `${n.name}: a zot extension`, exec, args, language, enabled: true }, null, 2) + "\n";
}

function testScript(n: Names): string {
  const lines = [
    { send: { type: "command_invoked", name: n.command, args: "" } },
    { expect: { type: "command_response", id: "$last_id", action: "display", display: `hello from ${n.name}` }, within_ms: 2000 },
    { send: { type: "tool_call", name: n.tool, args: { text: "ping" } } },
    { expect: { type: "tool_result", id: "$last_id", content: [{ type: "text", text: "ping" }] }, within_ms: 2000 },
  ];
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

/**
 * The programs are real files beside this one (linted, type-checked and run by the tests as they
 * are), written for an extension named `zot.demo`; `program` puts the real names in.
 */
const STAND_IN: Names = { name: "zot.demo", command: "zot-demo", tool: "zot_demo_echo" };
/** Where the SDK templates import the SDK from: the checkout they live in, relative to them. */
const STAND_IN_SDK = { ts: "../../../../sdk/typescript/src/index.ts", python: "../../../../sdk/python" };

/** A TypeScript file imported as text is still its module to the type checker; at run time it is the text. */
function textOf(imported: object): string {
  return (imported as unknown as { default: string }).default;
}

function program(template: string, n: Names, sdk?: SdkLocation): string {
  // The tool name first: it is the longest stand-in. split/join, as names and paths may hold "$".
  let text = template.split(STAND_IN.tool).join(n.tool).split(STAND_IN.command).join(n.command).split(STAND_IN.name).join(n.name);
  if (sdk?.lang === "ts") {
    const from = STAND_IN_SDK.ts;
    text = text.split(JSON.stringify(from)).join(JSON.stringify(sdk.entry)).split(from).join(sdk.entry);
  }
  // The Python SDK is copied beside the program: the lines that find it in the repository go.
  if (sdk?.lang === "python") text = text.replace(/\nimport sys\n/, "\n").replace(/^.*\(scaffold: drop from here\)\n[\s\S]*?\(scaffold: drop to here\)\n/m, "");
  return text;
}

const LANG_FILES: Record<Language, (n: Names) => ScaffoldFile[]> = {
  ts: (n) => [
    { path: "extension.json", content: manifest(n, "bun", ["index.ts"], "typescript") },
    { path: "index.ts", content: program(textOf(rawTs), n) },
  ],
  node: (n) => [
    { path: "extension.json", content: manifest(n, "node", ["index.mjs"], "javascript") },
    { path: "index.mjs", content: program(rawMjs, n) },
  ],
  python: (n) => [
    { path: "extension.json", content: manifest(n, "python3", ["main.py"], "python") },
    { path: "main.py", content: program(rawPy, n) },
  ],
  sh: (n) => [
    { path: "extension.json", content: manifest(n, "sh", ["main.sh"], "sh") },
    { path: "main.sh", mode: 0o755, content: program(rawSh, n) },
  ],
  "sh-posix": (n) => [
    { path: "extension.json", content: manifest(n, "sh", ["main.sh"], "sh") },
    { path: "main.sh", mode: 0o755, content: program(rawPosixSh, n) },
  ],
  go: (n) => [
    { path: "extension.json", content: manifest(n, `./${n.name}`, [], "go") },
    { path: "go.mod", content: `module ${n.name.replace(/[^A-Za-z0-9_.-]/g, "-")}\n\ngo 1.21\n` },
    { path: ".gitignore", content: `/${n.name}\n` },
    { path: "main.go", content: program(rawGo, n) },
  ],
};

const SDK_FILES: { [L in SdkLanguage]: (n: Names, sdk: SdkLocation) => ScaffoldFile[] } = {
  ts: (n, sdk) => [
    { path: "extension.json", content: manifest(n, "bun", ["index.ts"], "typescript") },
    { path: "index.ts", content: program(textOf(sdkTs), n, sdk) },
  ],
  python: (n, sdk) => [
    { path: "extension.json", content: manifest(n, "python3", ["main.py"], "python") },
    { path: "main.py", content: program(sdkPy, n, sdk) },
    ...(sdk.lang === "python" ? [{ path: "zot_ext.py", content: sdk.module }] : []),
  ],
};

const RUNTIME: Record<Language, string> = {
  ts: "Runs with `bun index.ts`; without Bun on PATH zot runs it with its own embedded Bun runtime, so nothing needs installing.",
  node: "Runs with `node index.mjs` (Node 18+); without Node on PATH zot runs it with its own embedded Bun runtime, so nothing needs installing.",
  python: "Runs with `python3 main.py` (Python 3.9+ on PATH, stdlib only).",
  sh: "Runs with `sh main.sh` and reads and writes every frame with `jq` (on PATH).",
  "sh-posix":
    "Runs with `sh main.sh` (POSIX sh and sed, no jq). Strings are copied between frames as written, never decoded; use jq or another language once you need their content.",
  go: "Runs the compiled binary.",
};

const ADD_TOOL: Record<Language, string> = {
  ts: "add a function to `tools` in `index.ts` and send its `register_tool` frame under `hello_ack`",
  node: "add a function to `tools` in `index.mjs` and send its `register_tool` frame under `hello_ack`",
  python: "add a function to `TOOLS` in `main.py` and send its `register_tool` frame under `hello_ack`",
  sh: "send its `register_tool` frame under `hello_ack` and answer it by name in the `tool_call` branch of `main.sh`",
  "sh-posix": "send its `register_tool` frame under `hello_ack` and answer it by name in the `tool_call` branch of `main.sh`",
  go: "send its `register_tool` frame under `hello_ack` and answer it by name in the `tool_call` case of `main.go`",
};

function sdkSection(n: Names, lang: Language, sdk: SdkLocation | undefined): string {
  if (sdk?.lang === "ts")
    return `## The SDK

\`index.ts\` imports the zot TypeScript SDK from \`${sdk.entry}\` (reference: \`docs/sdk.md\` in the zot
repository). To depend on the package instead, build it and install it here, then import from
\`"@zot/ext"\`:

\`\`\`sh
bun /path/to/zot/sdk/typescript/build.ts && npm install /path/to/zot/sdk/typescript
\`\`\`
`;
  if (sdk?.lang === "python")
    return `## The SDK

\`zot_ext.py\` beside \`main.py\` is the zot Python SDK, copied from \`${sdk.dir}\` (reference:
\`docs/sdk.md\` in the zot repository), so the extension needs nothing outside its directory and
runs the same under a permission scope, after \`zot ext install\` and on another machine. To take
a newer SDK, copy \`zot_ext.py\` from a newer zot again.
`;
  if (lang === "ts" || lang === "python")
    return `## The SDK

This scaffold speaks the raw protocol, so it runs anywhere with no dependencies. For bigger extensions
the zot ${lang === "ts" ? "TypeScript" : "Python"} SDK handles the handshake, concurrency, error replies and stdout for you;
\`zot ext init ${n.name}-sdk --lang ${lang} --sdk /path/to/zot\` writes the same extension on it.
`;
  return "";
}

function readme(n: Names, lang: Language, sdk: SdkLocation | undefined): string {
  const build = lang === "go" ? `\nBuild it first (needs Go 1.21+):\n\n\`\`\`sh\ngo build -o ${n.name} .\n\`\`\`\n` : "";
  const runtime = lang === "go" ? `Runs the compiled \`./${n.name}\` binary.` : RUNTIME[lang];
  const addTool = sdk ? `add another \`${sdk.lang === "ts" ? "ext.tool(…)" : "@ext.tool(…)"}\` next to \`${n.tool}\`` : ADD_TOOL[lang];
  return `# ${n.name}

A zot extension${sdk ? ` on the zot ${sdk.lang === "ts" ? "TypeScript" : "Python"} SDK` : ""}. ${runtime}

- \`/${n.command} [text]\` shows a greeting in the chat (no model call).
- \`${n.tool}\` is a tool the model can call: it echoes \`text\` back.
${build}
## Try it

\`\`\`sh
zot ext doctor -e .                  # spawn it, handshake, list what it registered
zot ext test . test.jsonl            # play the scenario in test.jsonl against it
zot -p --provider mock --permission-mode yolo -e . '${mockPrompt(n.name)}'
                                     # a whole agent run, offline: the mock model calls the tool
zot --ext .                          # use it for one zot session
zot ext install .                    # install it into $ZOT_HOME/extensions/${n.name}/
\`\`\`

The \`mock\` provider needs no key: a prompt \`call <tool> <json args>\` makes it call that tool and
print what came back, anything else is echoed.

## Add a tool

To add a tool, ${addTool}.

Then add a \`tool_call\` line and an \`expect\` line for it to \`test.jsonl\` (and drop the lines of
anything you remove), try it with the \`mock\` provider, and reinstall with
\`zot ext install --force .\`.

${sdkSection(n, lang, sdk)}
## Files

- \`extension.json\`: the manifest (name, exec, args, ...). \`name\` must match the \`hello\` frame.
- \`test.jsonl\`: a \`zot ext test\` script: \`send\` lines are host frames, \`expect\` lines match the
  extension's answers (\`"$last_id"\` is the id of the last frame sent).
- stderr goes to \`$ZOT_HOME/logs/ext-${n.name}.log\` (\`zot ext logs ${n.name}\`); stdout carries frames only.
`;
}
