#!/usr/bin/env python3
"""guard: refuses dangerous bash commands and rewrites a bare `ls` to `ls -la`.

The interceptor is fail-closed: if this process is slow, dead, or the check raises, zot blocks the
call instead of letting it through.
"""
import os
import re
import sys

# Inside the zot repository the SDK is imported from source; an installed copy should
# `pip install /path/to/zot/sdk/python` instead (the import below then finds the installed module).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "sdk", "python"))

from zot_ext import Decision, Extension, block, display  # noqa: E402

# (pattern, why) — matched against the whole command string.
DANGERS = [
    (r"\brm\s+(-[a-zA-Z]*\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z]*\s+)*(/|~|\$HOME)(\s|$|\*)", "recursive delete of / or the home directory"),
    (r"\brm\s+(-[a-zA-Z]*\s+)*--no-preserve-root\b", "rm --no-preserve-root"),
    (r"\bmkfs(\.\w+)?\b", "formatting a filesystem"),
    (r"\bdd\b[^|;&]*\bof=/dev/(sd|nvme|hd|vd|disk)", "dd onto a raw disk"),
    (r":\(\)\s*\{\s*:\|:&\s*\};\s*:", "fork bomb"),
    (r"\bchmod\s+(-[a-zA-Z]*\s+)*-R\s+0?777\s+/(\s|$)", "chmod -R 777 /"),
    (r"\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z)?sh\b", "piping a download into a shell"),
    (r">\s*/dev/(sd|nvme|hd|vd)[a-z0-9]*\b", "writing to a raw disk"),
]
COMPILED = [(re.compile(p), why) for p, why in DANGERS]

ext = Extension("guard", "1.0.0")
stats = {"checked": 0, "blocked": 0, "rewritten": 0}


def danger(command):
    for pattern, why in COMPILED:
        if pattern.search(command):
            return why
    return None


@ext.intercept_tool_call(fail_closed=True, timeout_ms=3000)
def check(call):
    if call.tool_name != "bash" or not isinstance(call.tool_args, dict):
        return None
    command = call.tool_args.get("command")
    if not isinstance(command, str):
        return None
    stats["checked"] += 1
    why = danger(command)
    if why:
        stats["blocked"] += 1
        ext.notify("warn", "blocked: %s" % command)
        return block('refused by guard: %s ("%s"). Ask the user to run it themselves if it is really intended.' % (why, command))
    if command.strip() == "ls":
        stats["rewritten"] += 1
        return Decision(modified_args=dict(call.tool_args, command="ls -la"))
    return None


@ext.command("guard", "show what guard has checked and blocked")
def show(args):
    return display("guard: %(checked)d bash calls checked, %(blocked)d blocked, %(rewritten)d rewritten" % stats)


ext.run()
