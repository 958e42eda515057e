// Skills compiled into the binary. They are ordinary skills (name, description, body) that lose to
// any same-named skill on disk, so a user can override one by writing their own.
import { BUILTIN_TOOLS } from "../names.ts";

export type BuiltinSkill = { name: string; description: string; body: string };

const EXTENSION_AUTHORING = `# Writing a zot extension

A zot extension is any program that speaks newline-delimited JSON on stdin/stdout. zot starts it as
a subprocess, and it can add slash commands, tools the model can call, event subscriptions,
interceptors (block or rewrite tool calls, turns and assistant messages) and interactive panels.

## Layout

One directory per extension with an \`extension.json\` manifest:

\`\`\`json
{ "name": "hello", "version": "1.0.0", "exec": "./hello.py", "language": "python",
  "description": "says hello", "enabled": true }
\`\`\`

- \`name\` (required) must equal the \`name\` in the extension's \`hello\` frame.
- \`exec\` (required unless the extension only ships \`theme.json\`) is relative to the manifest, or a
  bare command found on PATH; \`args\` are extra argv entries. Make scripts executable (\`chmod +x\`).
- Where zot looks: \`--ext PATH\` (for one run), \`./.zot/extensions/<name>/\`, then
  \`$ZOT_HOME/extensions/<name>/\`. \`zot ext install ./dir\` copies a directory into \`$ZOT_HOME\`.
- The extension runs with its own directory as cwd; the project directory is \`cwd\` in \`hello_ack\`.
  stderr goes to \`$ZOT_HOME/logs/ext-<name>.log\`: log there, never on stdout.

## Handshake

1. Extension sends first: \`{"type":"hello","name":"hello","version":"1.0.0","capabilities":["commands","tools"]}\`
2. zot answers \`hello_ack\` with \`protocol_version\`, \`provider\`, \`model\`, \`cwd\`, \`extension_dir\`, \`data_dir\`.
3. Extension registers, then sends \`{"type":"ready"}\`:
   - \`{"type":"register_command","name":"hi","description":"say hi"}\`
   - \`{"type":"register_tool","name":"weather","description":"…","schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}\`
     (add \`"deferred":true\` to hide a tool until a loader tool returns \`"activate_tools":["weather"]\`)
   - \`{"type":"subscribe","events":["turn_start","tool_call"],"intercept":["tool_call"]}\`

Names taken by built-in tools (${BUILTIN_TOOLS.join(", ")}) or by an earlier extension are shadowed.

## Runtime frames (host → extension, and the reply)

- \`command_invoked {id, name, args}\` → \`command_response {id, action, …}\` where action is
  \`prompt\` (with \`prompt\`), \`insert\` (with \`insert\`), \`display\` (with \`display\`),
  \`open_panel\` (with \`open_panel: {id, title, lines, footer}\`) or \`noop\`; a non-empty \`error\` is shown in red.
- \`tool_call {id, name, args}\` → \`tool_result {id, content:[{"type":"text","text":"…"}], is_error?}\`
  (image blocks: \`{"type":"image","mime_type":"image/png","data":"<base64>"}\`). Answer within 60 s.
- \`event {event, …}\`: one-way notifications (\`session_start\`, \`turn_start {step}\`,
  \`tool_call {tool_id, tool_name, tool_args}\`, \`tool_confirmation_requested\`, \`turn_end {stop}\`,
  \`assistant_message {text}\`).
- \`event_intercept {id, event, …}\` → \`event_intercept_response {id, block?, reason?, modified_args?, replace_text?}\`
  within 5 s (silence means allow). First block wins; rewrites chain from one interceptor to the next.
- \`panel_key {panel_id, key, text?}\`, \`panel_close {panel_id}\` while a panel is open; push
  \`panel_render {panel_id, title, lines, footer}\` to redraw and \`panel_close\` to close.
- Any time: \`notify {level: info|success|warn|error, message}\`, \`clear_notes\`, \`submit {text}\`.
- \`shutdown\` → reply \`shutdown_ack\` and exit. Also exit when stdin closes.

## Minimal Python extension

\`\`\`python
#!/usr/bin/env python3
import json, sys

def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\\n")
    sys.stdout.flush()

emit({"type": "hello", "name": "hello", "version": "1.0.0", "capabilities": ["commands", "tools"]})
for line in sys.stdin:
    msg = json.loads(line)
    t = msg.get("type")
    if t == "hello_ack":
        emit({"type": "register_command", "name": "hi", "description": "say hi"})
        emit({"type": "register_tool", "name": "shout", "description": "Upper-case a text.",
              "schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}})
        emit({"type": "ready"})
    elif t == "command_invoked":
        emit({"type": "command_response", "id": msg["id"], "action": "display", "display": "hi " + msg["args"]})
    elif t == "tool_call":
        emit({"type": "tool_result", "id": msg["id"], "content": [{"type": "text", "text": msg["args"].get("text", "").upper()}]})
    elif t == "shutdown":
        emit({"type": "shutdown_ack"})
        break
\`\`\`

## Trying it

- \`zot --ext ./hello -p "/hi there"\` runs a command without the TUI.
- \`zot --ext ./hello --provider mock -p 'call shout {"text":"hey"}'\` makes the offline mock model call the tool.
- \`zot ext doctor\` (or \`zot ext doctor --json\`) shows load status, registrations, conflicts, warnings and the log path.
- Flush stdout after every frame; one JSON object per line; never print anything before \`hello\`.
`;

const SKILL_AUTHORING = `# Writing a skill

A skill is a directory holding a \`SKILL.md\`: instructions the model loads on demand with the
\`skill\` tool. Only its name and description sit in the system prompt, so a skill costs almost
nothing until it is used.

## Where skills live (first match of a name wins)

1. \`<project>/.zot/skills/<name>/SKILL.md\`
2. \`$ZOT_HOME/skills/<name>/SKILL.md\`
3. \`<project>/.claude/skills/<name>/SKILL.md\`
4. \`<project>/.agents/skills/<name>/SKILL.md\`
5. skills built into zot

## Format

\`\`\`markdown
---
name: release-notes
description: Draft release notes from the git log since the last tag. Use when asked for a changelog or release notes.
---
# Release notes

1. Find the last tag: \`git describe --tags --abbrev=0\`.
2. ...
\`\`\`

- The front matter is simple \`key: value\` lines between \`---\` fences. \`name\` defaults to the
  directory name; \`description\` is required and should say *when* to use the skill.
- The body is plain Markdown. Keep it to the steps and facts the model wouldn't know.
- Other files in the skill directory (scripts, templates, references) can be mentioned by relative
  path; the \`skill\` tool reports the directory so they can be read or run.
`;

export const BUILTIN_SKILLS: readonly BuiltinSkill[] = [
  {
    name: "extension-authoring",
    description:
      "How to write a zot extension (any language, JSON lines over stdio): manifest, handshake, commands, tools, interceptors, panels. Use when asked to create or debug a zot extension.",
    body: EXTENSION_AUTHORING,
  },
  {
    name: "skill-authoring",
    description: "How to write a SKILL.md skill for zot (locations, front matter, body). Use when asked to create or change a skill.",
    body: SKILL_AUTHORING,
  },
];
