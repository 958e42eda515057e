#!/usr/bin/env python3
"""zot.demo: a zot extension in plain Python (raw protocol: one JSON object per line on stdin/stdout)."""
import json
import sys


def send(frame):
    sys.stdout.write(json.dumps(frame) + "\n")
    sys.stdout.flush()


def echo(args):
    return str(args.get("text", ""))


# Tools by name: add an entry here and a register_tool frame under hello_ack to add a tool.
TOOLS = {"zot_demo_echo": echo}

send({"type":"hello","name":"zot.demo","version":"0.1.0","capabilities":["commands","tools"]})

for line in sys.stdin:
    if not line.strip():
        continue
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello_ack":
        send({"type":"register_command","name":"zot-demo","description":"say hello from zot.demo"})
        send({"type":"register_tool","name":"zot_demo_echo","description":"Echo the given text back.","schema":{"type":"object","properties":{"text":{"type":"string","description":"text to echo back"}},"required":["text"]}})
        send({"type": "ready"})
    elif kind == "command_invoked":
        args = msg.get("args") or ""
        text = "hello from zot.demo: " + args if args else "hello from zot.demo"
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
