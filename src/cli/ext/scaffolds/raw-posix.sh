#!/bin/sh
# zot.demo: a zot extension in POSIX sh and sed, for machines without jq (raw protocol: one JSON
# object per line on stdin/stdout). It never decodes a string: a JSON string is copied from the
# frame into the answer as it was written, escapes and all, so any text stays valid JSON. The host
# writes compact JSON with "type" first, so frames are recognised by their prefix. To add a tool:
# send another register_tool frame under hello_ack, and answer it by name in the tool_call branch.

send() { printf '%s\n' "$1"; }
# A JSON string is "…" holding no bare quote or backslash, only escapes (\" \\ \n \u00e9 …); these
# print one as it stands in the frame, quotes and escapes kept, or nothing when it is not there.
# The host writes "type" first and then "id", so the id and a call's name are found by position.
frame_id() { printf '%s\n' "$1" | sed -n -E 's/^\{"type":"[a-z_]+","id":("([^"\\]|\\.)*").*/\1/p'; }
tool_name() { printf '%s\n' "$1" | sed -n -E 's/^\{"type":"tool_call","id":"([^"\\]|\\.)*","name":("([^"\\]|\\.)*").*/\2/p'; }
string_of() { printf '%s\n' "$1" | sed -n -E 's/.*"'"$2"'":("([^"\\]|\\.)*").*/\1/p'; }
# The same inside the call's "args" object.
arg_of() { string_of "$(printf '%s\n' "$1" | sed -n -E 's/.*"args":(\{.*)/\1/p')" "$2"; }
# A JSON string's content, to put inside another one ("abc" → abc).
inner() { v=${1#\"}; printf '%s' "${v%\"}"; }

send '{"type":"hello","name":"zot.demo","version":"0.1.0","capabilities":["commands","tools"]}'

while IFS= read -r line; do
  case "$line" in
    '{"type":"hello_ack"'*)
      send '{"type":"register_command","name":"zot-demo","description":"say hello from zot.demo"}'
      send '{"type":"register_tool","name":"zot_demo_echo","description":"Echo the given text back.","schema":{"type":"object","properties":{"text":{"type":"string","description":"text to echo back"}},"required":["text"]}}'
      send '{"type":"ready"}'
      ;;
    '{"type":"command_invoked"'*)
      args=$(inner "$(string_of "$line" args)")
      send '{"type":"command_response","id":'"$(frame_id "$line")"',"action":"display","display":"hello from zot.demo'"${args:+: $args}"'"}'
      ;;
    '{"type":"tool_call"'*)
      id=$(frame_id "$line")
      case "$(tool_name "$line")" in
        '"zot_demo_echo"')
          text=$(arg_of "$line" text)
          send '{"type":"tool_result","id":'"$id"',"content":[{"type":"text","text":'"${text:-\"\"}"'}]}'
          ;;
        *)
          send '{"type":"tool_result","id":'"$id"',"is_error":true,"content":[{"type":"text","text":"unknown tool '"$(inner "$(tool_name "$line")")"'"}]}'
          ;;
      esac
      ;;
    '{"type":"shutdown"'*)
      send '{"type":"shutdown_ack"}'
      exit 0
      ;;
  esac
done
