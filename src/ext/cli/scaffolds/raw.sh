#!/bin/sh
# zot.demo: a zot extension in POSIX sh (raw protocol: one JSON object per line on stdin/stdout).
# The host writes compact JSON with "type" first, so frames are recognised by their prefix. The sed
# extraction below handles ids and simple text; reach for jq once your extension parses more.
# To add a tool: send another register_tool frame under hello_ack, and in the tool_call branch
# answer by name (match *'"name":"your_tool"'* in "$line").

send() { printf '%s\n' "$1"; }
id_of() { printf '%s\n' "$1" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p' | head -n 1; }
arg_of() { printf '%s\n' "$1" | sed -n "s/.*\"args\":{.*\"$2\":\"\([^\"]*\)\".*/\1/p"; }

send '{"type":"hello","name":"zot.demo","version":"0.1.0","capabilities":["commands","tools"]}'

while IFS= read -r line; do
  case "$line" in
    '{"type":"hello_ack"'*)
      send '{"type":"register_command","name":"zot-demo","description":"say hello from zot.demo"}'
      send '{"type":"register_tool","name":"zot_demo_echo","description":"Echo the given text back.","schema":{"type":"object","properties":{"text":{"type":"string","description":"text to echo back"}},"required":["text"]}}'
      send '{"type":"ready"}'
      ;;
    '{"type":"command_invoked"'*)
      send '{"type":"command_response","id":"'"$(id_of "$line")"'","action":"display","display":"hello from zot.demo"}'
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
