#!/usr/bin/env python3
"""zot.demo: a zot extension on the zot Python SDK, which handles the handshake, concurrency,
error replies and stdout for you."""
import sys

# zot ext init copies the SDK (zot_ext.py) beside this file, where Python finds it first; here in the
# zot repository the template runs on the SDK in sdk/python. (scaffold: drop from here)
sys.path.append("../../../../sdk/python")
# (scaffold: drop to here)

from zot_ext import Extension, display, text  # noqa: E402

ext = Extension("zot.demo", "0.1.0")


# A slash command: /zot-demo [text] shows a greeting in the chat (no model call).
@ext.command("zot-demo", "say hello from zot.demo")
def hello(args):
    return display("hello from zot.demo: " + args if args else "hello from zot.demo")


# A tool the model can call. Add more with @ext.tool(name, description, schema): return a str or
# text(...); an exception becomes an is_error result.
ECHO_SCHEMA = {
    "type": "object",
    "properties": {
        "text": {
            "type": "string",
            "description": "text to echo back"
        }
    },
    "required": [
        "text"
    ]
}


@ext.tool("zot_demo_echo", "Echo the given text back.", ECHO_SCHEMA)
def echo(args):
    return text(str(args.get("text", "")))


ext.run()
