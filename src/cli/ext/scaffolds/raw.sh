#!/bin/sh
# zot.demo: a zot extension in shell with jq (raw protocol: one JSON object per line on stdin/stdout).
# jq reads each frame and writes each answer, so any text — quotes, backslashes, new lines — stays
# valid JSON. To add a tool: send another register_tool frame under hello_ack, and answer it by name
# in the tool_call branch.
if ! command -v jq >/dev/null 2>&1; then
  echo "zot.demo needs jq on PATH (apt install jq, brew install jq); or scaffold it with --lang sh-posix" >&2
  exit 1
fi

send() { printf '%s\n' "$1"; }

send '{"type":"hello","name":"zot.demo","version":"0.1.0","capabilities":["commands","tools"]}'

while IFS= read -r line; do
  case "$(printf '%s\n' "$line" | jq -r '.type')" in
    hello_ack)
      send '{"type":"register_command","name":"zot-demo","description":"say hello from zot.demo"}'
      send '{"type":"register_tool","name":"zot_demo_echo","description":"Echo the given text back.","schema":{"type":"object","properties":{"text":{"type":"string","description":"text to echo back"}},"required":["text"]}}'
      send '{"type":"ready"}'
      ;;
    command_invoked)
      printf '%s\n' "$line" | jq -c '{type: "command_response", id, action: "display", display: ("hello from zot.demo" + (if (.args // "") == "" then "" else ": " + .args end))}'
      ;;
    tool_call)
      printf '%s\n' "$line" | jq -c 'if .name == "zot_demo_echo"
        then {type: "tool_result", id, content: [{type: "text", text: (.args.text // "")}]}
        else {type: "tool_result", id, is_error: true, content: [{type: "text", text: ("unknown tool " + .name)}]} end'
      ;;
    shutdown)
      send '{"type":"shutdown_ack"}'
      exit 0
      ;;
  esac
done
