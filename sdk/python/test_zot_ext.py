"""Tests for zot_ext against a fake host over real pipes: `python3 -m unittest test_zot_ext` (from sdk/python)."""

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

# The frames of both directions, generated from the host's TypeScript types (scripts/protocol-schema.ts).
with open(os.path.join(HERE, "..", "protocol.schema.json")) as _f:
    SCHEMA = json.load(_f)["$defs"]


def schema_errors(value, schema, where="frame"):
    """The ways `value` breaks `schema`, for the JSON Schema keywords protocol.schema.json uses."""
    kinds = {"object": dict, "array": list, "string": str}
    t = schema.get("type")
    if t == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return ["%s must be a number, got %r" % (where, value)]
    if t == "boolean" and not isinstance(value, bool):
        return ["%s must be a boolean, got %r" % (where, value)]
    if t in kinds and not isinstance(value, kinds[t]):
        return ["%s must be a %s, got %r" % (where, t, value)]
    if "const" in schema and value != schema["const"]:
        return ["%s must be %r, got %r" % (where, schema["const"], value)]
    if "enum" in schema and value not in schema["enum"]:
        return ["%s must be one of %r, got %r" % (where, schema["enum"], value)]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            fits = [schema_errors(value, s, where) for s in schema[key]]
            if not any(not e for e in fits):
                # The closest alternative explains best what is wrong.
                return min(fits, key=len)
    errors = []
    if "items" in schema:
        for i, item in enumerate(value):
            errors += schema_errors(item, schema["items"], "%s[%d]" % (where, i))
    if "properties" in schema:
        for name in schema.get("required", []):
            if name not in value:
                errors.append("%s has no %r" % (where, name))
        for name, v in value.items():
            if name in schema["properties"]:
                errors += schema_errors(v, schema["properties"][name], "%s.%s" % (where, name))
            elif schema.get("additionalProperties") is False:
                errors.append("%s has the unknown field %r" % (where, name))
    return errors

FIXTURE = r'''
import asyncio, json, os, sys, threading, time
sys.path.insert(0, %(sdk)r)
from zot_ext import (Extension, Decision, block, display, error, image_block, insert, noop, open_panel,
                     prompt, result, text, text_block)

ext = Extension("pysink", "2.0.0")

@ext.command("prompt", "p")
def _prompt(args):
    return prompt("say " + args)

@ext.command("insert")
def _insert(args):
    return insert(args)

@ext.command("display")
def _display(args):
    return display(args)

@ext.command("panel")
def _panel(args):
    return open_panel("p1", "Panel", ["a", "b"], "esc close")

@ext.command("quiet")
def _quiet(args):
    ext.notify("success", "did it")
    ext.clear_notes()
    ext.submit("queued prompt")
    return noop()

@ext.command("nothing")
def _nothing(args):
    pass

@ext.command("fail")
def _fail(args):
    raise RuntimeError("kaput")

@ext.command("err")
def _err(args):
    return error("bad input")

@ext.command("wrong")
def _wrong(args):
    return "a bare string"

@ext.command("slow")
def _slow(args):
    time.sleep(0.4)
    return display("slow done")

@ext.command("aslow")
async def _aslow(args):
    await asyncio.sleep(0.4)
    return display("async slow done")

@ext.command("print")
def _print(args):
    print("stray print")
    os.system("echo stray child output")
    return display("printed")

@ext.command("close")
def _close(args):
    ext.close_panel("p1")
    return noop()

NUM = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}

@ext.tool("add", "adds", NUM)
def _add(args):
    return text(str(args["a"] + args["b"]))

@ext.tool("plain", "string")
def _plain(args):
    return "just a string"

@ext.tool("picture", "image")
def _picture(args, ctx):
    return result([text_block("see image"), image_block("aGk=", "image/png")])

@ext.tool("big", "a 2 MiB result")
def _big(args):
    return "x" * (2 * 1024 * 1024)

@ext.tool("boom", "throws")
def _boom(args):
    raise ValueError("tool exploded")

@ext.tool("loader", "activates")
def _loader(args):
    return text("loaded", activate_tools=["hidden"])

@ext.tool("hidden", "deferred", {"type": "object"}, deferred=True)
def _hidden(args):
    return text("hidden ran")

@ext.tool("wait", "waits for cancel")
def _wait(args, ctx):
    ctx.progress("started " + ctx.id)
    ctx.cancelled.wait(10)
    return text("aborted" if ctx.cancelled.is_set() else "not aborted", is_error=True)

@ext.tool("await", "async, cancelled")
async def _await(args, ctx):
    ctx.progress("async started")
    await asyncio.sleep(10)
    return text("never")

@ext.on_hello
def _hello(host):
    @ext.command("cwd", "from on_hello")
    def _cwd(args):
        return display("%%s|%%s|%%s|%%s" %% (host.cwd, host.model, host.data_dir, ext.host.zot_version))

@ext.on("turn_end")
def _turn_end(e):
    ext.notify("info", "turn_end " + e.stop)

@ext.on("tool_call")
async def _tool_call(e):
    ext.notify("info", "tool_call %%s %%s%%s" %% (e.tool_name, e.tool_args["path"], " by " + e.agent.id if e.agent else ""))

@ext.on("session_start")
def _session(e):
    raise RuntimeError("event handler errors are only logged")

ext.agent("critic", "finds bugs in a change", "You criticise code.", tools=["read"], reasoning="high")

@ext.tool("who", "says which agent called")
def _who(args, ctx):
    return ctx.agent.id if ctx.agent else "main"

@ext.intercept_tool_call(fail_closed=True, timeout_ms=2000)
def _guard(call):
    if call.agent is not None and call.agent.name == "untrusted":
        return block("no calls from %%s (started by %%s)" %% (call.agent.id, call.agent.parent))
    if call.tool_name == "explode":
        raise RuntimeError("interceptor bug")
    if call.tool_name != "bash":
        return None
    if "rm -rf" in call.tool_args["command"]:
        return block("dangerous")
    if call.tool_args["command"] == "ls":
        return Decision(modified_args={"command": "ls -la"})

@ext.intercept_turn_start
def _turn(turn):
    return block("too many steps") if turn.step > 5 else None

@ext.intercept_assistant_message()
async def _msg(m):
    return {"replace_text": m.text.replace("sk-abc", "[redacted]")}

@ext.intercept_tool_result
def _res(r):
    if r.tool_name == "explode":
        raise RuntimeError("fail-open bug")
    return Decision(replace_content=[{"type": "text", "text": b["text"].upper()} for b in r.content], is_error=False)

@ext.on_panel_key
def _key(k):
    ext.render(k.panel_id, lines=[("key %%s %%s" %% (k.key, k.text or "")).strip()])

@ext.on_panel_close
def _pclose(panel_id):
    ext.notify("warn", "closed " + panel_id)

@ext.on_panel_resize
def _resize(s):
    ext.render(s.panel_id, footer="%%dx%%d" %% (s.width, s.height))

@ext.on_settings_changed
def _settings(settings):
    ext.notify("info", "settings %%s host %%s" %% (json.dumps(settings, sort_keys=True), json.dumps(ext.host.settings, sort_keys=True)))

print("stray before run")
ext.run()
'''


class FakeHost:
    def __init__(self, path):
        self.proc = subprocess.Popen([sys.executable, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.frames = queue.Queue()
        self.seen = []
        self.stderr_lines = []
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr_done = threading.Thread(target=lambda: self.stderr_lines.extend(l.decode() for l in self.proc.stderr), daemon=True)
        self.stderr_done.start()
        self.pending = []
        self.invalid = []

    def _read(self):
        for line in self.proc.stdout:
            try:
                frame = json.loads(line)
            except ValueError:
                frame = {"type": "<not json>", "line": line.decode("utf-8", "replace")}
            else:
                errors = schema_errors(frame, SCHEMA["ExtensionFrame"])
                if errors:
                    self.invalid.append((frame, errors))
            self.seen.append(frame)
            self.frames.put(frame)
        self.frames.put(None)

    def send(self, frame, valid=True):
        if valid:
            errors = schema_errors(frame, SCHEMA["HostFrame"])
            assert not errors, "the test sends a frame the host never would: %s" % errors
        self.proc.stdin.write((json.dumps(frame) + "\n").encode())
        self.proc.stdin.flush()

    def take(self, match, timeout=10):
        for i, f in enumerate(self.pending):
            if match(f):
                return self.pending.pop(i)
        while True:
            f = self.frames.get(timeout=timeout)
            if f is None:
                raise AssertionError("extension exited; saw %r; stderr %s" % (self.seen, "".join(self.stderr_lines)))
            if match(f):
                return f
            self.pending.append(f)

    def reply(self, rid):
        return self.take(lambda f: f.get("id") == rid)

    def handshake(self):
        self.take(lambda f: f["type"] == "hello")
        self.send({"type": "hello_ack", "protocol_version": 1, "zot_version": "test", "provider": "mock", "model": "m",
                   "cwd": "/project", "extension_dir": "/ext", "data_dir": "/ext", "capabilities": []})
        self.take(lambda f: f["type"] == "ready")
        return self.seen[: self.seen.index({"type": "ready"}) + 1]

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for s in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            s.close()
        if self.invalid:
            raise AssertionError("the extension wrote frames outside the protocol schema: %r" % self.invalid)


class ZotExtTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "sink.py")
        with open(cls.path, "w") as f:
            f.write(FIXTURE % {"sdk": HERE})

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def start(self):
        host = FakeHost(self.path)
        self.addCleanup(host.close)
        return host

    def test_handshake_sends_hello_first_runs_on_hello_then_registers_subscribes_and_readies(self):
        host = self.start()
        frames = host.handshake()
        self.assertEqual(frames[0], {"type": "hello", "name": "pysink", "version": "2.0.0", "capabilities": ["commands", "tools", "events", "panels"]})
        commands = [f["name"] for f in frames if f["type"] == "register_command"]
        self.assertIn("cwd", commands)
        tools = {f["name"]: f for f in frames if f["type"] == "register_tool"}
        self.assertEqual(tools["hidden"], {"type": "register_tool", "name": "hidden", "description": "deferred", "schema": {"type": "object"}, "deferred": True})
        self.assertEqual(tools["plain"]["schema"], {"type": "object", "properties": {}})
        sub = next(f for f in frames if f["type"] == "subscribe")
        self.assertEqual(sub, {"type": "subscribe", "events": ["turn_end", "tool_call", "session_start"],
                               "intercept": [{"event": "tool_call", "timeout_ms": 2000, "on_timeout": "block"}, "turn_start", "assistant_message", "tool_result"]})
        host.send({"type": "command_invoked", "id": "c", "name": "cwd", "args": ""})
        self.assertEqual(host.reply("c")["display"], "/project|m|/ext|test")

    def test_agents_are_registered_and_a_subagents_calls_events_and_interceptions_name_it(self):
        host = self.start()
        frames = host.handshake()
        self.assertEqual(next(f for f in frames if f["type"] == "register_agent"),
                         {"type": "register_agent", "name": "critic", "description": "finds bugs in a change", "prompt": "You criticise code.", "tools": ["read"], "reasoning": "high"})
        agent = {"id": "untrusted-2", "name": "untrusted", "parent": "general-1"}
        host.send({"type": "tool_call", "id": "w1", "name": "who", "args": {}, "agent": agent})
        host.send({"type": "tool_call", "id": "w2", "name": "who", "args": {}})
        self.assertEqual(host.reply("w1")["content"], [{"type": "text", "text": "untrusted-2"}])
        self.assertEqual(host.reply("w2")["content"], [{"type": "text", "text": "main"}])
        host.send({"type": "event", "event": "tool_call", "tool_id": "x", "tool_name": "read", "tool_args": {"path": "a"}, "agent": agent})
        self.assertEqual(host.take(lambda f: f["type"] == "notify")["message"], "tool_call read a by untrusted-2")
        host.send({"type": "event_intercept", "id": "i1", "event": "tool_call", "tool_id": "y", "tool_name": "read", "tool_args": {}, "agent": agent})
        self.assertEqual(host.reply("i1"), {"type": "event_intercept_response", "id": "i1", "block": True, "reason": "no calls from untrusted-2 (started by general-1)"})

    def test_command_helpers_produce_their_frames_and_exceptions_become_errors(self):
        host = self.start()
        host.handshake()
        calls = [("prompt", "hi"), ("insert", "text"), ("display", "shown"), ("panel", ""), ("quiet", ""), ("nothing", ""),
                 ("fail", ""), ("err", ""), ("PROMPT", "case"), ("missing", ""), ("wrong", "")]
        for i, (name, args) in enumerate(calls):
            host.send({"type": "command_invoked", "id": "c%d" % i, "name": name, "args": args})
        r = [host.reply("c%d" % i) for i in range(len(calls))]
        self.assertEqual(r[0], {"type": "command_response", "id": "c0", "action": "prompt", "prompt": "say hi"})
        self.assertEqual(r[1], {"type": "command_response", "id": "c1", "action": "insert", "insert": "text"})
        self.assertEqual(r[2], {"type": "command_response", "id": "c2", "action": "display", "display": "shown"})
        self.assertEqual(r[3]["open_panel"], {"id": "p1", "title": "Panel", "lines": ["a", "b"], "footer": "esc close"})
        self.assertEqual(r[4], {"type": "command_response", "id": "c4", "action": "noop"})
        self.assertEqual(r[5], {"type": "command_response", "id": "c5", "action": "noop"})
        self.assertEqual(r[6]["error"], "/fail failed: kaput")
        self.assertEqual(r[7]["error"], "bad input")
        self.assertEqual(r[8]["prompt"], "say case")
        self.assertIn('unknown command "/missing"', r[9]["error"])
        self.assertIn("not a response", r[10]["error"])
        self.assertEqual(host.take(lambda f: f["type"] == "notify"), {"type": "notify", "level": "success", "message": "did it"})
        self.assertEqual(host.take(lambda f: f["type"] == "clear_notes"), {"type": "clear_notes"})
        self.assertEqual(host.take(lambda f: f["type"] == "submit"), {"type": "submit", "text": "queued prompt"})

    def test_slow_handlers_sync_or_async_do_not_hold_back_fast_ones(self):
        host = self.start()
        host.handshake()
        host.send({"type": "command_invoked", "id": "slow", "name": "slow", "args": ""})
        host.send({"type": "command_invoked", "id": "aslow", "name": "aslow", "args": ""})
        host.send({"type": "command_invoked", "id": "fast", "name": "display", "args": "fast"})
        host.reply("slow")
        host.reply("aslow")
        order = [f["id"] for f in host.seen if f["type"] == "command_response"]
        self.assertEqual(order[0], "fast")
        self.assertEqual(sorted(order[1:]), ["aslow", "slow"])

    def test_tool_results_carry_blocks_errors_and_activations_and_large_ones_arrive_whole(self):
        host = self.start()
        host.handshake()
        calls = [("add", {"a": 2, "b": 3}), ("plain", {}), ("picture", {}), ("boom", {}), ("loader", {}), ("hidden", {}), ("nope", {}), ("big", {})]
        for i, (name, args) in enumerate(calls):
            host.send({"type": "tool_call", "id": "t%d" % i, "name": name, "args": args})
        r = [host.reply("t%d" % i) for i in range(len(calls))]
        self.assertEqual(r[0], {"type": "tool_result", "id": "t0", "content": [{"type": "text", "text": "5"}], "is_error": False, "activate_tools": []})
        self.assertEqual(r[1]["content"], [{"type": "text", "text": "just a string"}])
        self.assertEqual(r[2]["content"], [{"type": "text", "text": "see image"}, {"type": "image", "mime_type": "image/png", "data": "aGk="}])
        self.assertEqual(r[3]["content"], [{"type": "text", "text": "boom failed: tool exploded"}])
        self.assertTrue(r[3]["is_error"])
        self.assertEqual(r[4]["activate_tools"], ["hidden"])
        self.assertEqual(r[5]["content"], [{"type": "text", "text": "hidden ran"}])
        self.assertTrue(r[6]["is_error"])
        self.assertEqual(len(r[7]["content"][0]["text"]), 2 * 1024 * 1024)

    def test_tool_cancel_sets_the_event_for_sync_tools_and_cancels_async_ones(self):
        host = self.start()
        host.handshake()
        host.send({"type": "tool_call", "id": "w", "name": "wait", "args": {}})
        self.assertEqual(host.take(lambda f: f["type"] == "tool_progress"), {"type": "tool_progress", "id": "w", "text": "started w"})
        host.send({"type": "tool_cancel", "id": "w"})
        self.assertEqual(host.reply("w")["content"], [{"type": "text", "text": "aborted"}])
        host.send({"type": "tool_call", "id": "a", "name": "await", "args": {}})
        self.assertEqual(host.take(lambda f: f["type"] == "tool_progress")["text"], "async started")
        host.send({"type": "tool_cancel", "id": "a"})
        reply = host.reply("a")
        self.assertTrue(reply["is_error"])
        self.assertIn("cancelled", reply["content"][0]["text"])

    def test_interceptors_decide_and_fail_closed_blocks_when_the_handler_raises(self):
        host = self.start()
        host.handshake()
        frames = [
            {"event": "tool_call", "tool_id": "a", "tool_name": "bash", "tool_args": {"command": "rm -rf /"}},
            {"event": "tool_call", "tool_id": "b", "tool_name": "bash", "tool_args": {"command": "ls"}},
            {"event": "tool_call", "tool_id": "c", "tool_name": "read", "tool_args": {"path": "x"}},
            {"event": "tool_call", "tool_id": "d", "tool_name": "explode", "tool_args": {}},
            {"event": "turn_start", "step": 9},
            {"event": "turn_start", "step": 1},
            {"event": "assistant_message", "text": "key sk-abc ok"},
            {"event": "tool_result", "tool_id": "e", "tool_name": "read", "tool_args": {}, "content": [{"type": "text", "text": "hello"}], "is_error": True},
            {"event": "tool_result", "tool_id": "f", "tool_name": "explode", "tool_args": {}, "content": [], "is_error": False},
        ]
        for i, f in enumerate(frames):
            host.send(dict(f, type="event_intercept", id="i%d" % i))
        r = [host.reply("i%d" % i) for i in range(len(frames))]

        def base(i, **kw):
            return dict({"type": "event_intercept_response", "id": "i%d" % i, "block": False, "reason": ""}, **kw)
        self.assertEqual(r[0], base(0, block=True, reason="dangerous"))
        self.assertEqual(r[1], base(1, modified_args={"command": "ls -la"}))
        self.assertEqual(r[2], base(2))
        self.assertTrue(r[3]["block"])
        self.assertIn("interceptor bug", r[3]["reason"])
        self.assertEqual(r[4], base(4, block=True, reason="too many steps"))
        self.assertEqual(r[5], base(5))
        self.assertEqual(r[6], base(6, replace_text="key [redacted] ok"))
        self.assertEqual(r[7], base(7, replace_content=[{"type": "text", "text": "HELLO"}], is_error=False))
        self.assertEqual(r[8], base(8))

    def test_events_and_panel_frames_reach_their_handlers(self):
        host = self.start()
        host.handshake()
        host.send({"type": "event", "event": "session_start"})
        host.send({"type": "event", "event": "tool_call", "tool_id": "x", "tool_name": "read", "tool_args": {"path": "a"}})
        self.assertEqual(host.take(lambda f: f["type"] == "notify")["message"], "tool_call read a")
        host.send({"type": "event", "event": "turn_end", "stop": "end_turn"})
        self.assertEqual(host.take(lambda f: f["type"] == "notify")["message"], "turn_end end_turn")
        host.send({"type": "panel_key", "panel_id": "p1", "key": "rune", "text": "x"})
        self.assertEqual(host.take(lambda f: f["type"] == "panel_render"), {"type": "panel_render", "panel_id": "p1", "lines": ["key rune x"]})
        host.send({"type": "panel_resize", "panel_id": "p1", "width": 80, "height": 20})
        self.assertEqual(host.take(lambda f: f["type"] == "panel_render"), {"type": "panel_render", "panel_id": "p1", "footer": "80x20"})
        host.send({"type": "panel_close", "panel_id": "p1"})
        self.assertEqual(host.take(lambda f: f["type"] == "notify"), {"type": "notify", "level": "warn", "message": "closed p1"})
        host.send({"type": "command_invoked", "id": "c", "name": "close", "args": ""})
        self.assertEqual(host.take(lambda f: f["type"] == "panel_close"), {"type": "panel_close", "panel_id": "p1"})

    def test_settings_arrive_in_hello_ack_and_settings_changed(self):
        host = self.start()
        host.take(lambda f: f["type"] == "hello")
        host.send({"type": "hello_ack", "protocol_version": 1, "zot_version": "test", "provider": "mock", "model": "m",
                   "cwd": "/project", "extension_dir": "/ext", "data_dir": "/ext", "capabilities": ["settings_changed"],
                   "settings": {"units": "metric"}})
        host.take(lambda f: f["type"] == "ready")
        host.send({"type": "settings_changed", "settings": {"units": "imperial"}})
        self.assertEqual(host.take(lambda f: f["type"] == "notify")["message"], 'settings {"units": "imperial"} host {"units": "imperial"}')

    def test_stray_output_goes_to_stderr_and_unknown_or_malformed_frames_are_ignored(self):
        host = self.start()
        host.handshake()
        host.send({"type": "brand_new_frame", "id": "z"}, valid=False)
        host.proc.stdin.write(b"not json\n")
        host.send({"type": "command_invoked", "id": "p", "name": "print", "args": ""})
        self.assertEqual(host.reply("p")["display"], "printed")
        host.send({"type": "shutdown"})
        self.assertEqual(host.proc.wait(10), 0)
        self.assertEqual([f for f in host.seen if f["type"].startswith("<")], [])
        host.stderr_done.join(10)
        err = "".join(host.stderr_lines)
        for s in ("stray before run", "stray print", "stray child output"):
            self.assertIn(s, err)

    def test_shutdown_waits_for_in_flight_replies_then_acks_and_exits(self):
        host = self.start()
        host.handshake()
        host.send({"type": "command_invoked", "id": "s", "name": "slow", "args": ""})
        host.send({"type": "shutdown"})
        self.assertEqual(host.proc.wait(10), 0)
        host.take(lambda f: f["type"] == "shutdown_ack")
        self.assertEqual([f["type"] for f in host.seen[-2:]], ["command_response", "shutdown_ack"])

    def test_end_of_input_exits_without_an_ack(self):
        host = self.start()
        host.handshake()
        host.proc.stdin.close()
        self.assertEqual(host.proc.wait(10), 0)
        self.assertNotIn({"type": "shutdown_ack"}, host.seen)


class SchemaTest(unittest.TestCase):
    def test_the_schema_accepts_the_frames_of_the_spec_and_names_what_is_wrong_with_others(self):
        frame = SCHEMA["ExtensionFrame"]
        self.assertEqual(schema_errors({"type": "notify", "level": "warn", "message": "hi"}, frame), [])
        self.assertEqual(schema_errors({"type": "subscribe", "events": ["turn_end"], "intercept": ["tool_call", {"event": "tool_result", "timeout_ms": 5, "on_timeout": "block"}]}, frame), [])
        self.assertEqual(schema_errors({"type": "notify", "level": "loud", "message": "hi"}, frame), ["frame.level must be one of ['info', 'success', 'warn', 'error'], got 'loud'"])
        self.assertEqual(schema_errors({"type": "tool_result", "id": "1", "content": [], "is_error": False, "activate_tools": [], "extra": 1}, frame), ["frame has the unknown field 'extra'"])
        self.assertEqual(schema_errors({"type": "tool_cancel", "id": 3}, SCHEMA["HostFrame"]), ["frame.id must be a string, got 3"])


if __name__ == "__main__":
    unittest.main()
