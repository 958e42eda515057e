"""zot_ext - the Python SDK for zot extensions. Stdlib only, Python >= 3.9.

    from zot_ext import Extension, prompt, text

    ext = Extension("hello", "1.0.0")

    @ext.command("hello", "say hi")
    def hello(args):
        return prompt("Greet me in one short sentence.")

    @ext.tool("weather", "Current weather for a city.",
              {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
    def weather(args, ctx):
        return text(args["city"] + ": sunny")

    ext.run()

Handlers may be plain functions (run on a thread pool) or coroutines (run on one asyncio loop in a
background thread), so a slow handler never holds back another. Every request gets exactly one
reply; an exception becomes an error reply. The real stdout is reserved for frames: file descriptor 1
is pointed at stderr, so stray prints (even from child processes) land in the extension's log.

WebSocket mode: `ext.listen(port, token_env="MY_TOKEN")` instead of `ext.run()` serves zot over a
WebSocket on 127.0.0.1 (a minimal RFC 6455 server, standard library only); zot connects when its
manifest has `"transport": {"type": "websocket", ...}`. Each connection is one session that ends on
shutdown or when zot goes away; the process keeps serving the next one.
"""

import asyncio
import base64
import concurrent.futures
import hashlib
import hmac
import inspect
import json
import os
import socket
import sys
import threading
import traceback
from types import SimpleNamespace

__all__ = [
    "Extension", "Decision", "ToolResult", "prompt", "insert", "display", "open_panel", "noop", "error",
    "text", "result", "text_block", "image_block", "allow", "block",
]

PROTOCOL_VERSION = 1
EVENT_NAMES = ("session_start", "turn_start", "turn_end", "tool_call", "tool_confirmation_requested", "assistant_message", "checkpoint", "rewind", "todo")
INTERCEPT_NAMES = ("tool_call", "turn_start", "assistant_message", "tool_result")
DEFAULT_INTERCEPT_TIMEOUT_MS = 5000
# The host allows 2 s between `shutdown` and SIGTERM; in-flight replies get most of it.
SHUTDOWN_GRACE_S = 1.5

_WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
# The host's own frame limit: a larger frame would be dropped there anyway.
_WS_MAX_MESSAGE = 64 * 1024 * 1024
_WS_MAX_REQUEST = 16 * 1024

_real_stdout = None
_take_lock = threading.Lock()
_write_lock = threading.Lock()


# ---------------------------------------------------------------- responses

def prompt(text):
    """Submit `text` as a user message; the agent runs a turn on it."""
    return {"action": "prompt", "prompt": text}


def insert(text):
    """Put `text` into the editor at the cursor without submitting."""
    return {"action": "insert", "insert": text}


def display(text):
    """Show `text` as a one-shot note; no model call, nothing in the transcript."""
    return {"action": "display", "display": text}


def open_panel(id, title="", lines=None, footer="", esc_key=False):
    """Open an interactive panel; keys then arrive at `@ext.on_panel_key` (Esc too with esc_key=True, instead of closing it)."""
    panel = {"id": id, "title": title, "lines": list(lines or []), "footer": footer}
    if esc_key:
        panel["esc_key"] = True
    return {"action": "open_panel", "open_panel": panel}


def noop():
    """The command was handled here (e.g. with `notify`); the host changes nothing."""
    return {"action": "noop"}


def error(message):
    """Shown by the host as a red status line."""
    return {"action": "noop", "error": message}


def text_block(value):
    return {"type": "text", "text": value}


def image_block(data, mime_type="image/png"):
    """`data` is base64."""
    return {"type": "image", "mime_type": mime_type, "data": data}


class ToolResult:
    """A tool's answer: content blocks (text and images), an error flag, and deferred tools to activate."""

    def __init__(self, content=None, is_error=False, activate_tools=None):
        self.content = list(content or [])
        self.is_error = bool(is_error)
        self.activate_tools = list(activate_tools or [])


def text(value, is_error=False, activate_tools=None):
    """A tool result of one text block."""
    return ToolResult([text_block(value)], is_error, activate_tools)


def result(content, is_error=False, activate_tools=None):
    """A tool result of any blocks."""
    return ToolResult(content, is_error, activate_tools)


class Decision:
    """An interceptor's answer. Returning None from an interceptor allows the event unchanged.

    block/reason: refuse (tool_call: the model sees reason; others: the user does).
    modified_args: tool_call only, the args the tool will see.
    replace_text: assistant_message only, the user-visible text.
    replace_content/is_error: tool_result only, what the model sees.
    """

    def __init__(self, block=False, reason="", modified_args=None, replace_text=None, replace_content=None, is_error=None):
        self.block = block
        self.reason = reason
        self.modified_args = modified_args
        self.replace_text = replace_text
        self.replace_content = replace_content
        self.is_error = is_error


def allow(reason=""):
    return Decision(reason=reason)


def block(reason):
    return Decision(block=True, reason=reason)


# ---------------------------------------------------------------- the extension

class _Command:
    def __init__(self, name, description, fn):
        self.name, self.description, self.fn = name, description, fn


class _Tool:
    def __init__(self, name, description, schema, fn, deferred):
        self.name, self.description, self.schema, self.fn, self.deferred = name, description, schema, fn, deferred
        self.wants_ctx = _arity(fn) >= 2


class _Intercept:
    def __init__(self, fn, fail_closed, timeout_ms):
        self.fn, self.fail_closed, self.timeout_ms = fn, fail_closed, timeout_ms


def _arity(fn):
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 1
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return 2
    return sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


def _agent(frame):
    """The subagent (zot's task tool) behind a frame, as .id, .name, .parent; None for the main agent."""
    a = frame.get("agent")
    if not isinstance(a, dict):
        return None
    return SimpleNamespace(id=a.get("id", ""), name=a.get("name", ""), parent=a.get("parent"))


def _payload(frame, drop):
    """A frame's fields as attributes with the wire names; .agent is always there (None for the main agent)."""
    fields = {k: v for k, v in frame.items() if k not in drop and k != "agent"}
    return SimpleNamespace(agent=_agent(frame), **fields)


def _message(exc):
    return str(exc) or type(exc).__name__


class Extension:
    def __init__(self, name, version="0.0.0", max_workers=32):
        """Takes over stdout at once, so prints between here and run() cannot corrupt the stream."""
        self.name = name
        self.version = version
        self.host = None  # SimpleNamespace from hello_ack, once it has arrived
        self._commands = {}
        self._tools = {}
        self._agents = {}
        self._events = {}
        self._intercepts = {}
        self._hello = []
        self._panel_key = []
        self._panel_close = []
        self._panel_resize = []
        self._settings_changed = []
        self._running = {}  # tool call id -> (threading.Event, concurrent future or None)
        self._lock = threading.Lock()
        self._out = None
        self._announced = False
        self._started = False
        self._listening = False
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="zot-ext")
        self._loop = None
        self._in_flight = set()
        self._take_stdout()

    # ------------------------------------------------------------ registration (decorators)

    def command(self, name, description=""):
        """@ext.command("name", "description") on fn(args) -> prompt()/insert()/display()/open_panel()/noop()/error()."""
        def register(fn):
            self._commands[name] = _Command(name, description, fn)
            if self._announced:
                self._send({"type": "register_command", "name": name, "description": description})
            return fn
        return register

    def tool(self, name, description="", schema=None, deferred=False):
        """@ext.tool(...) on fn(args) or fn(args, ctx); ctx has .id, .cancelled (threading.Event), .progress(text), .agent (the calling subagent or None)."""
        def register(fn):
            t = _Tool(name, description, schema if schema is not None else {"type": "object", "properties": {}}, fn, deferred)
            self._tools[name] = t
            if self._announced:
                self._send(self._register_tool_frame(t))
            return fn
        return register

    def agent(self, name, description, prompt, tools=None, model=None, reasoning=None):
        """An agent zot's task tool can run (zot addition, capability "agents"): prompt is its system
        prompt, tools the tools it may use (None: all), model "provider/model" or a model id,
        reasoning a thinking level or "off"."""
        frame = {"type": "register_agent", "name": name, "description": description, "prompt": prompt}
        if tools is not None:
            frame["tools"] = list(tools)
        if model is not None:
            frame["model"] = model
        if reasoning is not None:
            frame["reasoning"] = reasoning
        self._agents[name] = frame
        if self._announced:
            self._send(frame)
        return self

    def on_hello(self, fn):
        """@ext.on_hello on fn(host): runs after hello_ack, before registrations are announced."""
        self._hello.append(fn)
        return fn

    def on(self, event):
        """@ext.on("turn_end") on fn(event); event fields are attributes with the wire names."""
        if event not in EVENT_NAMES:
            raise ValueError("unknown event %r (expected one of %s)" % (event, ", ".join(EVENT_NAMES)))

        def register(fn):
            self._events.setdefault(event, []).append(fn)
            if self._announced:
                self._send(self._subscribe_frame())
            return fn
        return register

    def _interceptor(self, event, fn, fail_closed, timeout_ms):
        def register(f):
            self._intercepts[event] = _Intercept(f, fail_closed, timeout_ms)
            if self._announced:
                self._send(self._subscribe_frame())
            return f
        return register(fn) if callable(fn) else register

    def intercept_tool_call(self, fn=None, fail_closed=False, timeout_ms=None):
        """fn(call) with call.tool_id, .tool_name, .tool_args -> None | Decision(block, reason, modified_args)."""
        return self._interceptor("tool_call", fn, fail_closed, timeout_ms)

    def intercept_turn_start(self, fn=None, fail_closed=False, timeout_ms=None):
        """fn(turn) with turn.step -> None | Decision(block, reason)."""
        return self._interceptor("turn_start", fn, fail_closed, timeout_ms)

    def intercept_assistant_message(self, fn=None, fail_closed=False, timeout_ms=None):
        """fn(message) with message.text -> None | Decision(block, reason, replace_text)."""
        return self._interceptor("assistant_message", fn, fail_closed, timeout_ms)

    def intercept_tool_result(self, fn=None, fail_closed=False, timeout_ms=None):
        """fn(res) with res.tool_id, .tool_name, .tool_args, .content, .is_error -> None | Decision(block, reason, replace_content, is_error)."""
        return self._interceptor("tool_result", fn, fail_closed, timeout_ms)

    def on_panel_key(self, fn):
        """fn(key) with key.panel_id, key.key, key.text."""
        self._panel_key.append(fn)
        return fn

    def on_panel_close(self, fn):
        """fn(panel_id): the user closed the panel from zot."""
        self._panel_close.append(fn)
        return fn

    def on_panel_resize(self, fn):
        """fn(size) with size.panel_id, size.width, size.height."""
        self._panel_resize.append(fn)
        return fn

    def on_settings_changed(self, fn):
        """fn(settings): the user changed this extension's settings; host.settings already holds them."""
        self._settings_changed.append(fn)
        return fn

    # ------------------------------------------------------------ one-way frames

    def notify(self, level, message):
        if level not in ("info", "success", "warn", "error"):
            raise ValueError("notify level must be info, success, warn or error, not %r" % (level,))
        self._send({"type": "notify", "level": level, "message": message})

    def clear_notes(self):
        self._send({"type": "clear_notes"})

    def submit(self, text):
        self._send({"type": "submit", "text": text})

    def render(self, panel_id, title=None, lines=None, footer=None):
        """Redraws an open panel; fields left as None keep their value."""
        frame = {"type": "panel_render", "panel_id": panel_id}
        if title is not None:
            frame["title"] = title
        if lines is not None:
            frame["lines"] = list(lines)
        if footer is not None:
            frame["footer"] = footer
        self._send(frame)

    def close_panel(self, panel_id):
        self._send({"type": "panel_close", "panel_id": panel_id})

    # ------------------------------------------------------------ lifecycle

    def run(self):
        """Sends hello and serves host frames until shutdown or end of input, then exits the process."""
        self._started = True
        self._send(self._hello_frame())
        stdin = sys.stdin.buffer
        while True:
            line = stdin.readline()
            if not line:
                self._exit(ack=False)
            line = line.strip()
            if line:
                self._receive(line)

    def listen(self, port, token_env, host="127.0.0.1", on_listening=None):
        """WebSocket mode: serves zot on host:port (0 picks a free port) until the process is stopped.

        zot must send `Authorization: Bearer <token>` with the value of the environment variable
        `token_env`; any other token is refused with HTTP 401, a second zot while one is connected
        with 409. `on_listening(port)` is called once the port accepts connections.
        """
        token = os.environ.get(token_env, "")
        if not token:
            raise RuntimeError("%s: %s is not set; set it to the token zot sends (the variable zot's manifest names in transport.token_env)" % (self.name, token_env))
        self._listening = True
        server = socket.create_server((host, port))
        if on_listening is not None:
            on_listening(server.getsockname()[1])
        busy = threading.Lock()
        while True:
            conn, _ = server.accept()
            threading.Thread(target=self._serve_peer, args=(conn, token.encode("utf-8"), busy), daemon=True).start()

    def _serve_peer(self, conn, token, busy):
        try:
            key = _ws_handshake(conn, token, busy)
            if key is None:
                return
            peer = _WebSocket(conn)
            try:
                self._session(peer)
            finally:
                busy.release()
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass

    def _session(self, peer):
        """One zot connection: hello, then host frames until shutdown or until the connection goes."""
        self._out = peer
        self.host = None
        self._announced = False
        self._started = True
        self._send(self._hello_frame())
        for message in peer.messages():
            message = message.strip()
            if message:
                self._receive(message)
            if peer.closed:
                break
        self._started = False
        self._announced = False
        with self._lock:
            running = list(self._running.values())
        for cancelled, future in running:
            cancelled.set()
            if future is not None:
                future.cancel()

    def _hello_frame(self):
        caps = []
        if self._commands:
            caps.append("commands")
        if self._tools:
            caps.append("tools")
        if self._events or self._intercepts:
            caps.append("events")
        if self._panel_key or self._panel_close:
            caps.append("panels")
        return {"type": "hello", "name": self.name, "version": self.version, "capabilities": caps}

    def _take_stdout(self):
        global _real_stdout
        with _take_lock:
            # Once per process: a second Extension must not take fd 1 after it already points at stderr.
            if _real_stdout is None:
                sys.stdout.flush()
                _real_stdout = os.fdopen(os.dup(1), "wb", buffering=0)
                os.dup2(2, 1)
                sys.stdout = sys.stderr
        self._out = _real_stdout

    def _send(self, frame):
        if not self._started:
            # Nothing may precede hello; in WebSocket mode, registrations made while no zot is
            # connected are announced after the next hello.
            if not self._listening:
                self._log("dropped a %s frame sent before run()" % frame.get("type"))
            return
        data = (json.dumps(frame, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")
        with _write_lock:
            try:
                # A raw file may write less than asked on a pipe; a frame must go out whole.
                view = memoryview(data)
                while view:
                    view = view[self._out.write(view):]
            except (BrokenPipeError, OSError):
                pass

    def _log(self, message):
        sys.stderr.write("[%s] %s\n" % (self.name, message))
        sys.stderr.flush()

    def _receive(self, line):
        try:
            frame = json.loads(line)
        except ValueError:
            self._log("ignored a line from the host that is not JSON: %s" % line[:200].decode("utf-8", "replace"))
            return
        if not isinstance(frame, dict):
            return
        kind = frame.get("type")
        if kind == "hello_ack":
            self._handshake(frame)
        elif kind == "command_invoked":
            self._spawn(self._run_command, frame)
        elif kind == "tool_call":
            self._spawn(self._run_tool, frame)
        elif kind == "tool_cancel":
            self._cancel(frame.get("id"))
        elif kind == "event_intercept":
            self._spawn(self._run_intercept, frame)
        elif kind == "event":
            name = frame.get("event")
            payload = _payload(frame, ("type",))
            for fn in self._events.get(name, []):
                self._spawn(self._one_way, fn, payload, track=False)
        elif kind == "panel_key":
            payload = SimpleNamespace(panel_id=frame.get("panel_id"), key=frame.get("key"), text=frame.get("text"))
            for fn in self._panel_key:
                self._spawn(self._one_way, fn, payload, track=False)
        elif kind == "panel_close":
            for fn in self._panel_close:
                self._spawn(self._one_way, fn, frame.get("panel_id"), track=False)
        elif kind == "panel_resize":
            payload = SimpleNamespace(panel_id=frame.get("panel_id"), width=frame.get("width"), height=frame.get("height"))
            for fn in self._panel_resize:
                self._spawn(self._one_way, fn, payload, track=False)
        elif kind == "settings_changed":
            settings = frame.get("settings") if isinstance(frame.get("settings"), dict) else {}
            if self.host is not None:
                self.host.settings = settings
            for fn in self._settings_changed:
                self._spawn(self._one_way, fn, settings, track=False)
        elif kind == "shutdown":
            self._exit(ack=True)
        # Unknown frames are ignored so newer hosts can add frames without breaking older extensions.

    def _handshake(self, ack):
        self.host = SimpleNamespace(
            protocol_version=ack.get("protocol_version", PROTOCOL_VERSION),
            zot_version=ack.get("zot_version", ""),
            provider=ack.get("provider", ""),
            model=ack.get("model", ""),
            cwd=ack.get("cwd", ""),
            extension_dir=ack.get("extension_dir", ""),
            data_dir=ack.get("data_dir") or ack.get("extension_dir", ""),
            capabilities=list(ack.get("capabilities") or []),
            settings=dict(ack.get("settings") or {}),
        )
        for fn in self._hello:
            try:
                self._call(fn, self.host)
            except Exception as exc:
                self._log("on_hello handler failed: %s" % _message(exc))
        for c in self._commands.values():
            self._send({"type": "register_command", "name": c.name, "description": c.description})
        for t in self._tools.values():
            self._send(self._register_tool_frame(t))
        for a in self._agents.values():
            self._send(a)
        if self._events or self._intercepts:
            self._send(self._subscribe_frame())
        self._send({"type": "ready"})
        self._announced = True

    def _register_tool_frame(self, t):
        return {"type": "register_tool", "name": t.name, "description": t.description, "schema": t.schema, "deferred": t.deferred}

    def _subscribe_frame(self):
        intercept = []
        for event, spec in self._intercepts.items():
            if not spec.fail_closed and spec.timeout_ms is None:
                intercept.append(event)
            else:
                intercept.append({
                    "event": event,
                    "timeout_ms": spec.timeout_ms if spec.timeout_ms is not None else DEFAULT_INTERCEPT_TIMEOUT_MS,
                    "on_timeout": "block" if spec.fail_closed else "allow",
                })
        return {"type": "subscribe", "events": list(self._events), "intercept": intercept}

    # ------------------------------------------------------------ running handlers

    def _spawn(self, target, *args, track=True):
        future = self._pool.submit(target, *args)
        if track:
            with self._lock:
                self._in_flight.add(future)
            future.add_done_callback(self._done)

    def _done(self, future):
        with self._lock:
            self._in_flight.discard(future)

    def _call(self, fn, *args, on_future=None):
        """Calls a handler; a coroutine runs on the shared asyncio loop and this thread waits for it."""
        value = fn(*args)
        if not inspect.isawaitable(value):
            return value
        future = asyncio.run_coroutine_threadsafe(_awaitable(value), self._event_loop())
        if on_future is not None:
            on_future(future)
        return future.result()

    def _event_loop(self):
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="zot-ext-asyncio", daemon=True).start()
                self._loop = loop
            return self._loop

    def _one_way(self, fn, payload):
        try:
            self._call(fn, payload)
        except Exception as exc:
            self._log("handler %s failed: %s" % (getattr(fn, "__name__", "?"), _message(exc)))

    def _run_command(self, frame):
        rid, name, args = frame.get("id"), frame.get("name", ""), frame.get("args") or ""
        command = self._commands.get(name) or next((c for c in self._commands.values() if c.name.lower() == str(name).lower()), None)
        if command is None:
            response = error('%s: unknown command "/%s"' % (self.name, name))
        else:
            try:
                response = self._call(command.fn, args) or noop()
                if not isinstance(response, dict) or response.get("action") not in ("prompt", "insert", "display", "open_panel", "noop"):
                    response = error("/%s returned %r, not a response from prompt()/insert()/display()/open_panel()/noop()/error()" % (command.name, response))
            except Exception as exc:
                self._log(traceback.format_exc().rstrip())
                response = error("/%s failed: %s" % (command.name, _message(exc)))
        self._send(dict(response, type="command_response", id=rid))

    def _run_tool(self, frame):
        rid, name, args = frame.get("id"), frame.get("name", ""), frame.get("args") or {}
        tool = self._tools.get(name)
        if tool is None:
            res = text('%s has no tool named "%s"' % (self.name, name), is_error=True)
        else:
            cancelled = threading.Event()
            with self._lock:
                self._running[rid] = [cancelled, None]

            def progress(value):
                if not cancelled.is_set():
                    self._send({"type": "tool_progress", "id": rid, "text": value})

            def remember(future):
                with self._lock:
                    if rid in self._running:
                        self._running[rid][1] = future
                if cancelled.is_set():
                    future.cancel()

            ctx = SimpleNamespace(id=rid, cancelled=cancelled, progress=progress, agent=_agent(frame))
            try:
                out = self._call(tool.fn, *((args, ctx) if tool.wants_ctx else (args,)), on_future=remember)
                res = text(out) if isinstance(out, str) else out
                if not isinstance(res, ToolResult):
                    res = text("%s returned %r, not a ToolResult or str" % (name, out), is_error=True)
            except concurrent.futures.CancelledError:
                res = text("%s was cancelled by the host" % name, is_error=True)
            except Exception as exc:
                self._log(traceback.format_exc().rstrip())
                res = text("%s failed: %s" % (name, _message(exc)), is_error=True)
            finally:
                with self._lock:
                    self._running.pop(rid, None)
        self._send({"type": "tool_result", "id": rid, "content": res.content, "is_error": res.is_error, "activate_tools": res.activate_tools})

    def _cancel(self, rid):
        with self._lock:
            entry = self._running.get(rid)
        if entry is None:
            return
        entry[0].set()
        if entry[1] is not None:
            entry[1].cancel()

    def _run_intercept(self, frame):
        event = frame.get("event")
        spec = self._intercepts.get(event)
        decision = None
        if spec is not None:
            payload = _payload(frame, ("type", "id"))
            try:
                decision = self._call(spec.fn, payload)
            except Exception as exc:
                self._log("%s interceptor failed: %s" % (event, _message(exc)))
                if spec.fail_closed:
                    decision = block("%s: %s interceptor failed (%s); blocked (fail-closed)" % (self.name, event, _message(exc)))
        reply = {"type": "event_intercept_response", "id": frame.get("id"), "block": False, "reason": ""}
        if isinstance(decision, dict):
            decision = Decision(**decision)
        if isinstance(decision, Decision):
            reply["block"] = bool(decision.block)
            reply["reason"] = decision.reason or ""
            if decision.modified_args is not None:
                reply["modified_args"] = decision.modified_args
            if decision.replace_text is not None:
                reply["replace_text"] = decision.replace_text
            if decision.replace_content is not None:
                reply["replace_content"] = decision.replace_content
            if decision.is_error is not None:
                reply["is_error"] = bool(decision.is_error)
        self._send(reply)

    def _exit(self, ack):
        with self._lock:
            running = list(self._running.values())
            pending = list(self._in_flight)
        for cancelled, future in running:
            cancelled.set()
            if future is not None:
                future.cancel()
        concurrent.futures.wait(pending, timeout=SHUTDOWN_GRACE_S)
        if ack:
            self._send({"type": "shutdown_ack"})
        sys.stderr.flush()
        if self._listening:
            # WebSocket mode: this session is over, the server goes on.
            self._out.close(1000, "shutdown")
            return
        # Worker threads may still be blocked in user code; they must not keep the process alive.
        os._exit(0)


async def _awaitable(value):
    return await value


# ---------------------------------------------------------------- WebSocket mode (RFC 6455)

def _http_reply(conn, status, body):
    reason = {400: "Bad Request", 401: "Unauthorized", 409: "Conflict"}[status]
    data = body.encode("utf-8")
    conn.sendall(("HTTP/1.1 %d %s\r\ncontent-type: text/plain\r\ncontent-length: %d\r\nconnection: close\r\n\r\n" % (status, reason, len(data))).encode("ascii") + data)


def _ws_handshake(conn, token, busy):
    """Reads the upgrade request; answers 101 (and takes `busy`) or an HTTP error. Returns the key or None."""
    request = b""
    while b"\r\n\r\n" not in request:
        chunk = conn.recv(4096)
        if not chunk or len(request) > _WS_MAX_REQUEST:
            return None
        request += chunk
    lines = request.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    key = headers.get("sec-websocket-key", "")
    if not lines[0].startswith("GET ") or "websocket" not in headers.get("upgrade", "").lower() or not key or headers.get("sec-websocket-version") != "13":
        _http_reply(conn, 400, "not a WebSocket version 13 handshake\n")
        return None
    auth = headers.get("authorization", "").encode("latin-1")
    if not hmac.compare_digest(auth, b"Bearer " + token):
        _http_reply(conn, 401, "a wrong or missing bearer token; zot sends the one in the variable its manifest names in transport.token_env\n")
        return None
    if not busy.acquire(blocking=False):
        _http_reply(conn, 409, "another zot is connected to this extension\n")
        return None
    accept = base64.b64encode(hashlib.sha1(key.encode("ascii") + _WS_GUID).digest()).decode("ascii")
    conn.sendall(("HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: %s\r\n\r\n" % accept).encode("ascii"))
    return key


class _WebSocket:
    """One accepted connection: the client masks its frames, the server does not (RFC 6455 section 5)."""

    def __init__(self, conn):
        self._conn = conn
        self._lock = threading.Lock()
        self.closed = False

    def write(self, data):
        """Extension._send's sink: one frame's JSON (with its newline) becomes one text message."""
        self._frame(0x1, bytes(data).rstrip(b"\n"))
        return len(data)

    def close(self, code=1000, reason=""):
        if self.closed:
            return
        self._frame(0x8, code.to_bytes(2, "big") + reason.encode("utf-8"))
        self.closed = True
        try:
            self._conn.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def _frame(self, opcode, payload):
        n = len(payload)
        if n < 126:
            head = bytes([0x80 | opcode, n])
        elif n < 65536:
            head = bytes([0x80 | opcode, 126]) + n.to_bytes(2, "big")
        else:
            head = bytes([0x80 | opcode, 127]) + n.to_bytes(8, "big")
        with self._lock:
            if self.closed:
                return
            try:
                self._conn.sendall(head + payload)
            except OSError:
                self.closed = True

    def _read(self, n):
        data = b""
        while len(data) < n:
            chunk = self._conn.recv(n - len(data))
            if not chunk:
                raise EOFError()
            data += chunk
        return data

    def messages(self):
        """Yields each text message (as bytes) until the peer closes or goes away."""
        parts = []
        size = 0
        try:
            while not self.closed:
                b0, b1 = self._read(2)
                fin, opcode, masked, n = b0 & 0x80, b0 & 0x0F, b1 & 0x80, b1 & 0x7F
                if n == 126:
                    n = int.from_bytes(self._read(2), "big")
                elif n == 127:
                    n = int.from_bytes(self._read(8), "big")
                if not masked:
                    return self.close(1002, "client frames must be masked")
                if size + n > _WS_MAX_MESSAGE:
                    return self.close(1009, "message too big")
                mask = self._read(4)
                # Unmasking as one big-integer XOR, not a Python loop per byte.
                key = (mask * (n // 4 + 1))[:n]
                payload = (int.from_bytes(self._read(n), "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")
                if opcode == 0x8:
                    code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1000
                    return self.close(code)
                if opcode == 0x9:
                    self._frame(0xA, payload)
                elif opcode in (0x0, 0x1, 0x2):
                    parts.append(payload)
                    size += n
                    if fin:
                        message = b"".join(parts)
                        parts, size = [], 0
                        yield message
        except (EOFError, OSError):
            self.closed = True
