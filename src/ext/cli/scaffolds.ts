// The files `zot ext init` writes for each language. By default a scaffold speaks the raw protocol
// with no dependencies; with an SDK (ts and python) it is written on the zot SDK instead. Either way
// it registers one command and one tool and ships a `zot ext test` script that passes right away.

export const LANGUAGES = ["ts", "python", "go", "node", "sh"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The languages that have a zot SDK, and so accept `--sdk`. */
export const SDK_LANGUAGES = ["ts", "python"] as const;
export type SdkLanguage = (typeof SDK_LANGUAGES)[number];

/** Where the scaffold imports the SDK from: the TS SDK's entry file, or the directory holding zot_ext.py. */
export type SdkLocation = { lang: "ts"; entry: string } | { lang: "python"; dir: string };

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

const SCHEMA = { type: "object", properties: { text: { type: "string", description: "text to echo back" } }, required: ["text"] };

function frames(n: Names) {
  return {
    hello: { type: "hello", name: n.name, version: "0.1.0", capabilities: ["commands", "tools"] },
    command: { type: "register_command", name: n.command, description: `say hello from ${n.name}` },
    tool: { type: "register_tool", name: n.tool, description: "Echo the given text back.", schema: SCHEMA },
  };
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

/** The raw-protocol program shared by the ts and node scaffolds; `typed` adds the TypeScript annotations. */
function jsProgram(n: Names, typed: boolean): string {
  const f = frames(n);
  return `import { createInterface } from "node:readline";
${typed ? "\ntype Frame = { type: string; [key: string]: unknown };\n" : ""}
function send(frame${typed ? ": Frame): void" : ")"} {
  process.stdout.write(JSON.stringify(frame) + "\\n");
}

// Tools by name: add an entry here and a register_tool frame under hello_ack to add a tool.
const tools${typed ? ": Record<string, (args: Record<string, unknown>) => string>" : ""} = {
  ${JSON.stringify(n.tool)}: (args) => String(args.text ?? ""),
};

send(${JSON.stringify(f.hello)});

createInterface({ input: process.stdin })
  .on("line", (line) => {
    if (line.trim() === "") return;
    const msg = JSON.parse(line)${typed ? " as Frame" : ""};
    switch (msg.type) {
      case "hello_ack":
        send(${JSON.stringify(f.command)});
        send(${JSON.stringify(f.tool)});
        send({ type: "ready" });
        break;
      case "command_invoked": {
        const args = String(msg.args ?? "");
        send({ type: "command_response", id: msg.id, action: "display", display: args ? \`hello from ${n.name}: \${args}\` : "hello from ${n.name}" });
        break;
      }
      case "tool_call": {
        const tool = tools[String(msg.name)];
        const content = (text${typed ? ": string" : ""}) => [{ type: "text", text }];
        if (!tool) send({ type: "tool_result", id: msg.id, content: content(\`unknown tool \${msg.name}\`), is_error: true });
        else send({ type: "tool_result", id: msg.id, content: content(tool((msg.args ?? {})${typed ? " as Record<string, unknown>" : ""})) });
        break;
      }
      case "shutdown":
        send({ type: "shutdown_ack" });
        process.exit(0);
    }
  })
  .on("close", () => process.exit(0));
`;
}

const LANG_FILES: Record<Language, (n: Names) => ScaffoldFile[]> = {
  ts: (n) => [
    { path: "extension.json", content: manifest(n, "bun", ["index.ts"], "typescript") },
    { path: "index.ts", content: `// ${n.name}: a zot extension speaking the raw protocol (one JSON object per line on stdin/stdout).\n${jsProgram(n, true)}` },
  ],
  node: (n) => [
    { path: "extension.json", content: manifest(n, "node", ["index.mjs"], "javascript") },
    { path: "index.mjs", content: `// ${n.name}: a zot extension in plain Node (raw protocol: one JSON object per line on stdin/stdout).\n${jsProgram(n, false)}` },
  ],
  python: (n) => [
    { path: "extension.json", content: manifest(n, "python3", ["main.py"], "python") },
    {
      path: "main.py",
      content: `#!/usr/bin/env python3
"""${n.name}: a zot extension in plain Python (raw protocol: one JSON object per line on stdin/stdout)."""
import json
import sys


def send(frame):
    sys.stdout.write(json.dumps(frame) + "\\n")
    sys.stdout.flush()


def echo(args):
    return str(args.get("text", ""))


# Tools by name: add an entry here and a register_tool frame under hello_ack to add a tool.
TOOLS = {${pyLiteral(n.tool)}: echo}

send(${pyLiteral(frames(n).hello)})

for line in sys.stdin:
    if not line.strip():
        continue
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello_ack":
        send(${pyLiteral(frames(n).command)})
        send(${pyLiteral(frames(n).tool)})
        send({"type": "ready"})
    elif kind == "command_invoked":
        args = msg.get("args") or ""
        text = "hello from ${n.name}: " + args if args else "hello from ${n.name}"
        send({"type": "command_response", "id": msg["id"], "action": "display", "display": text})
    elif kind == "tool_call":
        tool = TOOLS.get(msg.get("name"))
        if tool is None:
            content, is_error = "unknown tool " + str(msg.get("name")), True
        else:
            content, is_error = tool(msg.get("args") or {}), False
        send({"type": "tool_result", "id": msg["id"], "content": [{"type": "text", "text": content}], "is_error": is_error})
    elif kind == "shutdown":
        send({"type": "shutdown_ack"})
        break
`,
    },
  ],
  sh: (n) => [
    { path: "extension.json", content: manifest(n, "sh", ["main.sh"], "sh") },
    {
      path: "main.sh",
      mode: 0o755,
      content: `#!/bin/sh
# ${n.name}: a zot extension in POSIX sh (raw protocol: one JSON object per line on stdin/stdout).
# The host writes compact JSON with "type" first, so frames are recognised by their prefix. The sed
# extraction below handles ids and simple text; reach for jq once your extension parses more.
# To add a tool: send another register_tool frame under hello_ack, and in the tool_call branch
# answer by name (match *'"name":"your_tool"'* in "$line").

send() { printf '%s\\n' "$1"; }
id_of() { printf '%s\\n' "$1" | sed -n 's/.*"id":"\\([^"]*\\)".*/\\1/p' | head -n 1; }
arg_of() { printf '%s\\n' "$1" | sed -n "s/.*\\"args\\":{.*\\"$2\\":\\"\\([^\\"]*\\)\\".*/\\1/p"; }

send '${JSON.stringify(frames(n).hello)}'

while IFS= read -r line; do
  case "$line" in
    '{"type":"hello_ack"'*)
      send '${JSON.stringify(frames(n).command)}'
      send '${JSON.stringify(frames(n).tool)}'
      send '{"type":"ready"}'
      ;;
    '{"type":"command_invoked"'*)
      send '{"type":"command_response","id":"'"$(id_of "$line")"'","action":"display","display":"hello from ${n.name}"}'
      ;;
    '{"type":"tool_call"'*)
      send '{"type":"tool_result","id":"'"$(id_of "$line")"'","content":[{"type":"text","text":"'"$(arg_of "$line" text)"'"}]}'
      ;;
    '{"type":"shutdown"'*)
      send '{"type":"shutdown_ack"}'
      exit 0
      ;;
  esac
done
`,
    },
  ],
  go: (n) => [
    { path: "extension.json", content: manifest(n, `./${n.name}`, [], "go") },
    { path: "go.mod", content: `module ${n.name.replace(/[^A-Za-z0-9_.-]/g, "-")}\n\ngo 1.21\n` },
    { path: ".gitignore", content: `/${n.name}\n` },
    {
      path: "main.go",
      content: `// ${n.name}: a zot extension in Go (raw protocol: one JSON object per line on stdin/stdout).
// Build with: go build -o ${n.name} .
// To add a tool: send another register_tool frame under hello_ack, and in the tool_call case
// decode a Name field (\`json:"name"\`) and answer by it.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

var out = json.NewEncoder(os.Stdout)

func send(frame map[string]any) {
	if err := out.Encode(frame); err != nil {
		fmt.Fprintln(os.Stderr, "write:", err)
		os.Exit(1)
	}
}

func main() {
	send(${goLiteral(frames(n).hello)})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1024*1024), 64*1024*1024)
	for in.Scan() {
		var msg struct {
			Type string          \`json:"type"\`
			ID   string          \`json:"id"\`
			Args json.RawMessage \`json:"args"\`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil {
			continue
		}
		switch msg.Type {
		case "hello_ack":
			send(${goLiteral(frames(n).command)})
			send(map[string]any{"type": "register_tool", "name": ${JSON.stringify(n.tool)}, "description": "Echo the given text back.",
				"schema": json.RawMessage(${JSON.stringify(JSON.stringify(SCHEMA))})})
			send(map[string]any{"type": "ready"})
		case "command_invoked":
			var args string
			json.Unmarshal(msg.Args, &args)
			text := "hello from ${n.name}"
			if args != "" {
				text += ": " + args
			}
			send(map[string]any{"type": "command_response", "id": msg.ID, "action": "display", "display": text})
		case "tool_call":
			var args struct {
				Text string \`json:"text"\`
			}
			json.Unmarshal(msg.Args, &args)
			send(map[string]any{"type": "tool_result", "id": msg.ID,
				"content": []map[string]any{{"type": "text", "text": args.Text}}})
		case "shutdown":
			send(map[string]any{"type": "shutdown_ack"})
			return
		}
	}
}
`,
    },
  ],
};

const SDK_FILES: { [L in SdkLanguage]: (n: Names, sdk: SdkLocation) => ScaffoldFile[] } = {
  ts: (n, sdk) => [
    { path: "extension.json", content: manifest(n, "bun", ["index.ts"], "typescript") },
    {
      path: "index.ts",
      content: `// ${n.name}: a zot extension on the zot TypeScript SDK, which handles the handshake, concurrency,
// error replies and stdout for you. It is imported from your zot checkout by absolute path, so this
// file runs with plain \`bun\` and keeps working after \`zot ext install\`.
import { Extension, display, text } from ${JSON.stringify(sdkPath(sdk))};

const ext = new Extension(${JSON.stringify(n.name)}, "0.1.0");

// A slash command: /${n.command} [text] shows a greeting in the chat (no model call).
ext.command(${JSON.stringify(n.command)}, ${JSON.stringify(`say hello from ${n.name}`)}, (args) =>
  display(args ? \`hello from ${n.name}: \${args}\` : "hello from ${n.name}"),
);

// A tool the model can call. Add more with ext.tool(name, description, JSON schema, handler): return
// a string or text(...); a thrown error becomes an is_error result.
const echoSchema = ${JSON.stringify(SCHEMA, null, 2)};
ext.tool(${JSON.stringify(n.tool)}, "Echo the given text back.", echoSchema, (args) => text(String(args.text ?? "")));

void ext.run();
`,
    },
  ],
  python: (n, sdk) => [
    { path: "extension.json", content: manifest(n, "python3", ["main.py"], "python") },
    {
      path: "main.py",
      content: `#!/usr/bin/env python3
"""${n.name}: a zot extension on the zot Python SDK, which handles the handshake, concurrency,
error replies and stdout for you."""
import sys

# The SDK from your zot checkout, by absolute path so that \`zot ext install\` keeps working. After
# \`pip install ${sdkPath(sdk)}\` the installed zot_ext is found first and this line can go.
sys.path.append(${pyLiteral(sdkPath(sdk))})

from zot_ext import Extension, display, text  # noqa: E402

ext = Extension(${pyLiteral(n.name)}, "0.1.0")


# A slash command: /${n.command} [text] shows a greeting in the chat (no model call).
@ext.command(${pyLiteral(n.command)}, ${pyLiteral(`say hello from ${n.name}`)})
def hello(args):
    return display("hello from ${n.name}: " + args if args else "hello from ${n.name}")


# A tool the model can call. Add more with @ext.tool(name, description, schema): return a str or
# text(...); an exception becomes an is_error result.
ECHO_SCHEMA = ${JSON.stringify(SCHEMA, null, 4)}


@ext.tool(${pyLiteral(n.tool)}, "Echo the given text back.", ECHO_SCHEMA)
def echo(args):
    return text(str(args.get("text", "")))


ext.run()
`,
    },
  ],
};

function sdkPath(sdk: SdkLocation): string {
  return sdk.lang === "ts" ? sdk.entry : sdk.dir;
}

/** These values hold only strings, lists and objects, whose JSON is also a valid Python literal. */
function pyLiteral(v: unknown): string {
  return JSON.stringify(v);
}

/** A flat JSON object (string and []string values) as a Go map literal. */
function goLiteral(v: Record<string, unknown>): string {
  const parts = Object.entries(v).map(([k, val]) => {
    const lit = Array.isArray(val) ? `[]string{${val.map((x) => JSON.stringify(x)).join(", ")}}` : JSON.stringify(val);
    return `${JSON.stringify(k)}: ${lit}`;
  });
  return `map[string]any{${parts.join(", ")}}`;
}

const RUNTIME: Record<Language, string> = {
  ts: "Runs with `bun index.ts` (Bun on PATH).",
  node: "Runs with `node index.mjs` (Node 18+ on PATH).",
  python: "Runs with `python3 main.py` (Python 3.9+ on PATH, stdlib only).",
  sh: "Runs with `sh main.sh` (POSIX sh and sed). Fine for small things; use jq or another language once you parse more than ids.",
  go: "Runs the compiled binary.",
};

const ADD_TOOL: Record<Language, string> = {
  ts: "add a function to `tools` in `index.ts` and send its `register_tool` frame under `hello_ack`",
  node: "add a function to `tools` in `index.mjs` and send its `register_tool` frame under `hello_ack`",
  python: "add a function to `TOOLS` in `main.py` and send its `register_tool` frame under `hello_ack`",
  sh: "send its `register_tool` frame under `hello_ack` and answer it by name in the `tool_call` branch of `main.sh`",
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

\`main.py\` finds the zot Python SDK (\`zot_ext.py\`) in \`${sdk.dir}\` (reference: \`docs/sdk.md\` in the
zot repository). \`pip install ${sdk.dir}\` makes it importable everywhere, after which the
\`sys.path.append\` line can go.
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
zot -p --provider mock -e . '${mockPrompt(n.name)}'
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
