// The files `zot ext init` writes for each language. Every scaffold speaks the raw protocol with no
// dependencies, registers one command and one tool, and ships a `zot ext test` script that checks both.

export const LANGUAGES = ["ts", "python", "go", "node", "sh"] as const;
export type Language = (typeof LANGUAGES)[number];

export type Scaffold = {
  files: { path: string; content: string; mode?: number }[];
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

export function scaffold(name: string, lang: Language): Scaffold {
  const n = namesFor(name);
  const files = [...LANG_FILES[lang](n), { path: "test.jsonl", content: testScript(n) }, { path: "README.md", content: readme(n, lang) }];
  return { files, build: lang === "go" ? `go build -o ${name} .` : null };
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

const LANG_FILES: Record<Language, (n: Names) => { path: string; content: string; mode?: number }[]> = {
  ts: (n) => [
    { path: "extension.json", content: manifest(n, "bun", ["index.ts"], "typescript") },
    {
      path: "index.ts",
      content: `// ${n.name}: a zot extension speaking the raw protocol (one JSON object per line on stdin/stdout).
import { createInterface } from "node:readline";

type Frame = { type: string; [key: string]: unknown };

function send(frame: Frame): void {
  process.stdout.write(JSON.stringify(frame) + "\\n");
}

send(${JSON.stringify(frames(n).hello)});

createInterface({ input: process.stdin })
  .on("line", (line) => {
    if (line.trim() === "") return;
    const msg = JSON.parse(line) as Frame;
    switch (msg.type) {
      case "hello_ack":
        send(${JSON.stringify(frames(n).command)});
        send(${JSON.stringify(frames(n).tool)});
        send({ type: "ready" });
        break;
      case "command_invoked": {
        const args = String(msg.args ?? "");
        send({ type: "command_response", id: msg.id, action: "display", display: args ? \`hello from ${n.name}: \${args}\` : "hello from ${n.name}" });
        break;
      }
      case "tool_call": {
        const args = (msg.args ?? {}) as { text?: unknown };
        send({ type: "tool_result", id: msg.id, content: [{ type: "text", text: String(args.text ?? "") }] });
        break;
      }
      case "shutdown":
        send({ type: "shutdown_ack" });
        process.exit(0);
    }
  })
  .on("close", () => process.exit(0));
`,
    },
  ],
  node: (n) => [
    { path: "extension.json", content: manifest(n, "node", ["index.mjs"], "javascript") },
    {
      path: "index.mjs",
      content: `// ${n.name}: a zot extension in plain Node (raw protocol: one JSON object per line on stdin/stdout).
import { createInterface } from "node:readline";

function send(frame) {
  process.stdout.write(JSON.stringify(frame) + "\\n");
}

send(${JSON.stringify(frames(n).hello)});

createInterface({ input: process.stdin })
  .on("line", (line) => {
    if (line.trim() === "") return;
    const msg = JSON.parse(line);
    switch (msg.type) {
      case "hello_ack":
        send(${JSON.stringify(frames(n).command)});
        send(${JSON.stringify(frames(n).tool)});
        send({ type: "ready" });
        break;
      case "command_invoked": {
        const args = String(msg.args ?? "");
        send({ type: "command_response", id: msg.id, action: "display", display: args ? \`hello from ${n.name}: \${args}\` : "hello from ${n.name}" });
        break;
      }
      case "tool_call":
        send({ type: "tool_result", id: msg.id, content: [{ type: "text", text: String(msg.args?.text ?? "") }] });
        break;
      case "shutdown":
        send({ type: "shutdown_ack" });
        process.exit(0);
    }
  })
  .on("close", () => process.exit(0));
`,
    },
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
        text = str((msg.get("args") or {}).get("text", ""))
        send({"type": "tool_result", "id": msg["id"], "content": [{"type": "text", "text": text}]})
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

/** These frames hold only strings, lists and objects, whose JSON is also a valid Python literal. */
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

function readme(n: Names, lang: Language): string {
  const build = lang === "go" ? `\nBuild it first (needs Go 1.21+):\n\n\`\`\`sh\ngo build -o ${n.name} .\n\`\`\`\n` : "";
  const runtime: Record<Language, string> = {
    ts: "Runs with `bun index.ts` (Bun must be on PATH). For bigger extensions, the TypeScript SDK in zot's `sdk/typescript/` handles the protocol for you.",
    node: "Runs with `node index.mjs` (Node 18+ on PATH).",
    python: "Runs with `python3 main.py` (Python 3.9+ on PATH, stdlib only). For bigger extensions, the Python SDK in zot's `sdk/python/` handles the protocol for you.",
    sh: "Runs with `sh main.sh` (POSIX sh and sed). Fine for small things; use jq or another language once you parse more than ids.",
    go: `Runs the compiled \`./${n.name}\` binary.`,
  };
  return `# ${n.name}

A zot extension. ${runtime[lang]}

- \`/${n.command} [text]\` shows a greeting in the chat (no model call).
- \`${n.tool}\` is a tool the model can call: it echoes \`text\` back.
${build}
## Try it

\`\`\`sh
zot ext doctor -e .          # spawn it, handshake, list what it registered
zot ext test . test.jsonl    # play the scenario in test.jsonl against it
zot --ext .                  # use it for one zot session
zot ext install .            # install it into $ZOT_HOME/extensions/${n.name}/
\`\`\`

## Files

- \`extension.json\`: the manifest (name, exec, args, ...). \`name\` must match the \`hello\` frame.
- \`test.jsonl\`: a \`zot ext test\` script: \`send\` lines are host frames, \`expect\` lines match the
  extension's answers (\`"$last_id"\` is the id of the last frame sent).
- stderr goes to \`$ZOT_HOME/logs/ext-${n.name}.log\` (\`zot ext logs ${n.name}\`); stdout carries frames only.
`;
}
