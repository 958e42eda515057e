// The zot TypeScript SDK (sdk/typescript in the zot repository), bundled into one module by
// scripts/vendor-sdk.ts so this extension needs nothing outside its directory. Do not edit: run the script.
// src/json.ts
function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function kind(v) {
  if (v === null)
    return "null";
  if (Array.isArray(v))
    return "array";
  return typeof v;
}

// src/protocol.ts
var REWIND_RESTORES = ["code", "conversation", "both", "undo"];
var TODO_STATUSES = ["pending", "in_progress", "done"];
var DEFAULT_INTERCEPT_TIMEOUT_MS = 5000;
var PANEL_KEY_NAMES = [
  "up",
  "down",
  "left",
  "right",
  "enter",
  "esc",
  "tab",
  "pageup",
  "pagedown",
  "home",
  "end",
  "backspace",
  "delete",
  "rune"
];
var COMMAND_ACTIONS = ["prompt", "insert", "display", "open_panel", "noop"];
var ok = (value) => ({ ok: true, value });
var fail = (error) => ({ ok: false, error });
function str(o, key, required) {
  const v = o[key];
  if (v === undefined || v === null)
    return required ? fail(`missing required string field "${key}"`) : ok(undefined);
  if (typeof v !== "string")
    return fail(`field "${key}" must be a string, got ${kind(v)}`);
  return ok(v);
}
function strArray(o, key) {
  const v = o[key];
  if (v === undefined || v === null)
    return ok([]);
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string"))
    return fail(`field "${key}" must be an array of strings`);
  return ok(v);
}
function bool(o, key) {
  const v = o[key];
  if (v === undefined || v === null)
    return ok(false);
  if (typeof v !== "boolean")
    return fail(`field "${key}" must be a boolean, got ${kind(v)}`);
  return ok(v);
}
function decodeContent(v, key = "content") {
  if (v === undefined || v === null)
    return ok([]);
  if (!Array.isArray(v))
    return fail(`field "${key}" must be an array of content blocks`);
  const out = [];
  for (let i = 0;i < v.length; i++) {
    const b = v[i];
    if (!isObject(b))
      return fail(`${key}[${i}] must be an object`);
    if (b.type === "text") {
      if (b.text !== undefined && b.text !== null && typeof b.text !== "string")
        return fail(`${key}[${i}].text must be a string`);
      out.push({ type: "text", text: typeof b.text === "string" ? b.text : "" });
    } else if (b.type === "image") {
      const mime = b.mime_type ?? b.mimeType;
      if (typeof mime !== "string" || typeof b.data !== "string")
        return fail(`${key}[${i}] image needs string "mime_type" and "data"`);
      out.push({ type: "image", mime_type: mime, data: b.data });
    } else {
      return fail(`${key}[${i}].type must be "text" or "image", got ${JSON.stringify(b.type ?? null)}`);
    }
  }
  return ok(out);
}
function num(o, key, required) {
  const v = o[key];
  if (v === undefined || v === null)
    return required ? fail(`missing required number field "${key}"`) : ok(0);
  if (typeof v !== "number" || !Number.isFinite(v))
    return fail(`field "${key}" must be a number, got ${kind(v)}`);
  return ok(v);
}
function agentField(o) {
  const a = o.agent;
  if (a === undefined || a === null)
    return ok({});
  if (!isObject(a) || typeof a.id !== "string" || typeof a.name !== "string" || a.parent !== null && a.parent !== undefined && typeof a.parent !== "string")
    return fail(`field "agent" must be {"id": string, "name": string, "parent": string or null}`);
  return ok({ agent: { id: a.id, name: a.name, parent: typeof a.parent === "string" ? a.parent : null } });
}
function toolCallFields(o) {
  const toolId = str(o, "tool_id", false);
  if (!toolId.ok)
    return fail(toolId.error);
  const toolName = str(o, "tool_name", false);
  if (!toolName.ok)
    return fail(toolName.error);
  return ok({ tool_id: toolId.value ?? "", tool_name: toolName.value ?? "", tool_args: o.tool_args ?? {} });
}
function mcpClient(o) {
  return typeof o.mcp_client === "string" ? { mcp_client: o.mcp_client } : {};
}
function decodeTodoItems(v) {
  if (!Array.isArray(v))
    return fail(`"items" must be an array of {"text", "status"} objects`);
  const items = [];
  for (const [i, raw] of v.entries()) {
    if (!isObject(raw) || typeof raw.text !== "string" || raw.text.trim() === "")
      return fail(`items[${i}] needs a non-empty "text" string`);
    const status = raw.status;
    if (typeof status !== "string" || !TODO_STATUSES.includes(status)) {
      return fail(`items[${i}].status must be one of ${TODO_STATUSES.map((s) => `"${s}"`).join(", ")}, got ${JSON.stringify(status ?? null)}`);
    }
    items.push({ text: raw.text, status });
  }
  return ok(items);
}
function decodeEvent(o) {
  const event = o.event;
  const type = "event";
  switch (event) {
    case "session_start":
      return ok({ type, event });
    case "turn_start": {
      const step = num(o, "step", false);
      return step.ok ? ok({ type, event, step: step.value }) : fail(step.error);
    }
    case "turn_end": {
      const stop = str(o, "stop", false);
      if (!stop.ok)
        return fail(stop.error);
      const error = str(o, "error", false);
      if (!error.ok)
        return fail(error.error);
      return ok(error.value === undefined ? { type, event, stop: stop.value ?? "" } : { type, event, stop: stop.value ?? "", error: error.value });
    }
    case "tool_call": {
      const fields = toolCallFields(o);
      return fields.ok ? ok({ type, event, ...fields.value, ...mcpClient(o) }) : fail(fields.error);
    }
    case "tool_confirmation_requested": {
      const fields = toolCallFields(o);
      if (!fields.ok)
        return fail(fields.error);
      const preview = str(o, "tool_preview", false);
      if (!preview.ok)
        return fail(preview.error);
      return ok({ type, event, tool_id: fields.value.tool_id, tool_name: fields.value.tool_name, tool_preview: preview.value ?? "" });
    }
    case "assistant_message": {
      const text = str(o, "text", false);
      return text.ok ? ok({ type, event, text: text.value ?? "" }) : fail(text.error);
    }
    case "checkpoint": {
      const checkpoint = str(o, "checkpoint", true);
      if (!checkpoint.ok)
        return fail(checkpoint.error);
      const files = num(o, "files", true);
      return files.ok ? ok({ type, event, checkpoint: checkpoint.value ?? "", files: files.value }) : fail(files.error);
    }
    case "rewind": {
      const restore = REWIND_RESTORES.find((r) => r === o.restore);
      if (!restore)
        return fail(`field "restore" must be one of ${REWIND_RESTORES.join(", ")}`);
      const files = o.files;
      if (!Array.isArray(files) || !files.every((f) => typeof f === "string"))
        return fail(`field "files" must be an array of strings`);
      if (o.prompt === undefined)
        return ok({ type, event, restore, files });
      const prompt = num(o, "prompt", true);
      return prompt.ok ? ok({ type, event, restore, prompt: prompt.value, files }) : fail(prompt.error);
    }
    case "todo": {
      const items = decodeTodoItems(o.items);
      return items.ok ? ok({ type, event, items: items.value }) : fail(items.error);
    }
    default:
      return fail(`unknown event ${JSON.stringify(event ?? null)}`);
  }
}
function decodeEventIntercept(o, id) {
  const event = o.event;
  const type = "event_intercept";
  switch (event) {
    case "tool_call": {
      const fields = toolCallFields(o);
      return fields.ok ? ok({ type, id, event, ...fields.value, ...mcpClient(o) }) : fail(fields.error);
    }
    case "turn_start": {
      const step = num(o, "step", false);
      return step.ok ? ok({ type, id, event, step: step.value }) : fail(step.error);
    }
    case "assistant_message": {
      const text = str(o, "text", false);
      return text.ok ? ok({ type, id, event, text: text.value ?? "" }) : fail(text.error);
    }
    case "tool_result": {
      const fields = toolCallFields(o);
      if (!fields.ok)
        return fail(fields.error);
      const content = decodeContent(o.content);
      if (!content.ok)
        return fail(content.error);
      const isError = bool(o, "is_error");
      if (!isError.ok)
        return fail(isError.error);
      return ok({ type, id, event, ...fields.value, content: content.value, is_error: isError.value });
    }
    default:
      return fail(`unknown intercept event ${JSON.stringify(event ?? null)}`);
  }
}
function decodeHostFrame(raw) {
  if (!isObject(raw))
    return fail(`frame must be a JSON object, got ${kind(raw)}`);
  const type = raw.type;
  if (typeof type !== "string")
    return fail(`frame has no string "type" field`);
  const o = raw;
  const id = str(o, "id", true);
  const panelId = str(o, "panel_id", true);
  switch (type) {
    case "hello_ack": {
      const version = num(o, "protocol_version", true);
      if (!version.ok)
        return fail(`hello_ack: ${version.error}`);
      const fields = {
        zot_version: "",
        provider: "",
        model: "",
        cwd: "",
        extension_dir: "",
        data_dir: ""
      };
      for (const key of Object.keys(fields)) {
        const v = str(o, key, false);
        if (!v.ok)
          return fail(`hello_ack: ${v.error}`);
        fields[key] = v.value ?? "";
      }
      if (o.data_dir === undefined || o.data_dir === null)
        fields.data_dir = fields.extension_dir;
      const caps = strArray(o, "capabilities");
      if (!caps.ok)
        return fail(`hello_ack: ${caps.error}`);
      const frame = { type, protocol_version: version.value, ...fields, capabilities: caps.value };
      if (o.settings !== undefined && o.settings !== null) {
        if (!isObject(o.settings))
          return fail(`hello_ack: field "settings" must be an object, got ${kind(o.settings)}`);
        frame.settings = o.settings;
      }
      return ok(frame);
    }
    case "command_invoked": {
      if (!id.ok)
        return fail(`command_invoked: ${id.error}`);
      const name = str(o, "name", true);
      if (!name.ok)
        return fail(`command_invoked: ${name.error}`);
      const args = str(o, "args", false);
      if (!args.ok)
        return fail(`command_invoked: ${args.error}`);
      return ok({ type, id: id.value, name: name.value, args: args.value ?? "" });
    }
    case "tool_call": {
      if (!id.ok)
        return fail(`tool_call: ${id.error}`);
      const name = str(o, "name", true);
      if (!name.ok)
        return fail(`tool_call: ${name.error}`);
      const args = o.args ?? {};
      if (!isObject(args))
        return fail(`tool_call: field "args" must be an object, got ${kind(args)}`);
      const agent = agentField(o);
      if (!agent.ok)
        return fail(`tool_call: ${agent.error}`);
      return ok({ type, id: id.value, name: name.value, args, ...agent.value });
    }
    case "event": {
      const event = decodeEvent(o);
      const agent = agentField(o);
      if (!agent.ok)
        return fail(`event: ${agent.error}`);
      return event.ok ? ok({ ...event.value, ...agent.value }) : fail(`event: ${event.error}`);
    }
    case "event_intercept": {
      if (!id.ok)
        return fail(`event_intercept: ${id.error}`);
      const frame = decodeEventIntercept(o, id.value);
      const agent = agentField(o);
      if (!agent.ok)
        return fail(`event_intercept: ${agent.error}`);
      return frame.ok ? ok({ ...frame.value, ...agent.value }) : fail(`event_intercept: ${frame.error}`);
    }
    case "panel_key": {
      if (!panelId.ok)
        return fail(`panel_key: ${panelId.error}`);
      const key = o.key;
      if (typeof key !== "string" || !PANEL_KEY_NAMES.includes(key))
        return fail(`panel_key: key must be one of ${PANEL_KEY_NAMES.join(", ")}, got ${JSON.stringify(key ?? null)}`);
      const text = str(o, "text", false);
      if (!text.ok)
        return fail(`panel_key: ${text.error}`);
      const frame = { type, panel_id: panelId.value, key };
      if (text.value !== undefined)
        frame.text = text.value;
      return ok(frame);
    }
    case "panel_close":
      return panelId.ok ? ok({ type, panel_id: panelId.value }) : fail(`panel_close: ${panelId.error}`);
    case "panel_resize": {
      if (!panelId.ok)
        return fail(`panel_resize: ${panelId.error}`);
      const width = num(o, "width", true);
      if (!width.ok)
        return fail(`panel_resize: ${width.error}`);
      const height = num(o, "height", true);
      if (!height.ok)
        return fail(`panel_resize: ${height.error}`);
      return ok({ type, panel_id: panelId.value, width: width.value, height: height.value });
    }
    case "shutdown":
      return ok({ type });
    case "tool_cancel":
      return id.ok ? ok({ type, id: id.value }) : fail(`tool_cancel: ${id.error}`);
    case "settings_changed":
      return isObject(o.settings) ? ok({ type, settings: o.settings }) : fail(`settings_changed: field "settings" must be an object, got ${kind(o.settings)}`);
    default:
      return { ok: false, error: `unknown frame type "${type}"`, unknownType: type };
  }
}

// sdk/typescript/src/stdio.ts
var taken = null;
function takeStdout() {
  if (taken)
    return taken;
  const out = process.stdout;
  const write = out.write.bind(out);
  out.on("error", () => {});
  const toStderr = (...args) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  out.write = (chunk, ...rest) => process.stderr.write(chunk, ...rest);
  taken = {
    send(frame) {
      write(JSON.stringify(frame) + `
`);
    },
    flush() {
      return new Promise((resolve) => write("", () => resolve()));
    }
  };
  return taken;
}
function readLines(onLine, onEnd) {
  let buffer = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    buffer += chunk;
    let nl = buffer.indexOf(`
`);
    while (nl >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line)
        onLine(line);
      nl = buffer.indexOf(`
`);
    }
  });
  process.stdin.on("end", () => {
    const rest = buffer.trim();
    buffer = "";
    if (rest)
      onLine(rest);
    onEnd();
  });
}

// sdk/typescript/src/websocket.ts
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
var GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
function authorized(header, token) {
  const m = /^Bearer (.+)$/.exec(header ?? "");
  if (!m)
    return false;
  const got = Buffer.from(m[1] ?? "");
  const want = Buffer.from(token);
  return got.length === want.length && timingSafeEqual(got, want);
}
function listen(opts, h) {
  const bun = globalThis.Bun;
  return bun ? listenBun(bun, opts, h) : listenNode(opts, h);
}
async function listenBun(bun, opts, h) {
  const server = bun.serve({
    hostname: opts.hostname,
    port: opts.port,
    fetch(req, srv) {
      const refused = refusal(req.headers.get("authorization"), opts.token, h);
      if (refused)
        return new Response(refused.body, { status: refused.status });
      if (srv.upgrade(req, { data: { peer: null } }))
        return;
      return new Response(`zot extensions speak WebSocket here
`, { status: 426 });
    },
    websocket: {
      maxPayloadLength: opts.maxMessageBytes,
      open(ws) {
        ws.data.peer = { send: (text) => ws.send(text), close: (code, reason) => ws.close(code, reason) };
        h.open(ws.data.peer);
      },
      message(ws, data) {
        h.message(ws.data.peer, typeof data === "string" ? data : new TextDecoder().decode(data));
      },
      close(ws) {
        h.closed(ws.data.peer);
      }
    }
  });
  return { port: server.port, close: async () => void await server.stop(true) };
}
function refusal(auth, token, h) {
  if (!authorized(auth, token))
    return { status: 401, body: `a wrong or missing bearer token; zot sends the one in the variable its manifest names in transport.token_env
` };
  if (!h.accepting())
    return { status: 409, body: `another zot is connected to this extension
` };
  return null;
}
function listenNode(opts, h) {
  const server = createServer((_req, res) => {
    res.writeHead(426, { "content-type": "text/plain" }).end(`zot extensions speak WebSocket here
`);
  });
  server.on("upgrade", (req, socket) => {
    const key = req.headers["sec-websocket-key"];
    const refused = typeof key !== "string" || req.headers["sec-websocket-version"] !== "13" ? { status: 400, body: `not a WebSocket version 13 handshake
` } : refusal(req.headers.authorization, opts.token, h);
    if (refused) {
      const reason = refused.status === 401 ? "Unauthorized" : refused.status === 409 ? "Conflict" : "Bad Request";
      socket.end(`HTTP/1.1 ${refused.status} ${reason}\r
content-type: text/plain\r
content-length: ${Buffer.byteLength(refused.body)}\r
connection: close\r
\r
${refused.body}`);
      return;
    }
    const accept = createHash("sha1").update(key + GUID).digest("base64");
    socket.write(`HTTP/1.1 101 Switching Protocols\r
upgrade: websocket\r
connection: Upgrade\r
sec-websocket-accept: ${accept}\r
\r
`);
    serveSocket(socket, opts.maxMessageBytes, h);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.hostname, () => {
      const address = server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : opts.port,
        close: () => new Promise((done) => {
          server.closeAllConnections();
          server.close(() => done());
        })
      });
    });
  });
}
function serveSocket(socket, maxMessageBytes, h) {
  let buffer = Buffer.alloc(0);
  let parts = [];
  let partsBytes = 0;
  let closed = false;
  const frame = (opcode, payload) => {
    const len = payload.length;
    const head = len < 126 ? Buffer.from([128 | opcode, len]) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
    if (len >= 126 && len < 65536) {
      head[0] = 128 | opcode;
      head[1] = 126;
      head.writeUInt16BE(len, 2);
    } else if (len >= 65536) {
      head[0] = 128 | opcode;
      head[1] = 127;
      head.writeBigUInt64BE(BigInt(len), 2);
    }
    socket.write(Buffer.concat([head, payload]));
  };
  const close = (code, reason) => {
    if (closed)
      return;
    closed = true;
    const body = Buffer.alloc(2 + Buffer.byteLength(reason));
    body.writeUInt16BE(code, 0);
    body.write(reason, 2);
    frame(8, body);
    socket.end();
    h.closed(peer);
  };
  const peer = {
    send: (text) => {
      if (!closed)
        frame(1, Buffer.from(text));
    },
    close
  };
  socket.on("data", (chunk) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    while (!closed) {
      if (buffer.length < 2)
        return;
      const b0 = buffer.readUInt8(0);
      const b1 = buffer.readUInt8(1);
      const fin = (b0 & 128) !== 0;
      const opcode = b0 & 15;
      const masked = (b1 & 128) !== 0;
      let len = b1 & 127;
      let at = 2;
      if (len === 126) {
        if (buffer.length < 4)
          return;
        len = buffer.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (buffer.length < 10)
          return;
        const big = buffer.readBigUInt64BE(2);
        if (big > BigInt(maxMessageBytes))
          return close(1009, "message too big");
        len = Number(big);
        at = 10;
      }
      if (!masked)
        return close(1002, "client frames must be masked");
      if (len > maxMessageBytes || partsBytes + len > maxMessageBytes)
        return close(1009, "message too big");
      if (buffer.length < at + 4 + len)
        return;
      const mask = buffer.subarray(at, at + 4);
      const payload = Buffer.from(buffer.subarray(at + 4, at + 4 + len));
      for (let i = 0;i < payload.length; i++)
        payload.writeUInt8(payload.readUInt8(i) ^ mask.readUInt8(i & 3), i);
      buffer = buffer.subarray(at + 4 + len);
      if (opcode === 8)
        return close(payload.length >= 2 ? payload.readUInt16BE(0) : 1000, "");
      if (opcode === 9)
        frame(10, payload);
      else if (opcode === 1 || opcode === 2 || opcode === 0) {
        parts.push(payload);
        partsBytes += payload.length;
        if (fin) {
          const text = Buffer.concat(parts).toString("utf8");
          parts = [];
          partsBytes = 0;
          h.message(peer, text);
        }
      }
    }
  });
  const gone = () => {
    if (closed)
      return;
    closed = true;
    h.closed(peer);
  };
  socket.on("error", gone);
  socket.on("close", gone);
  socket.on("end", () => {
    gone();
    socket.end();
  });
  h.open(peer);
}

// sdk/typescript/src/extension.ts
var SHUTDOWN_GRACE_MS = 1500;
var MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
var errorText = (e) => e instanceof Error ? e.message : String(e);

class Extension {
  name;
  version;
  host = null;
  commands = new Map;
  tools = new Map;
  agents = new Map;
  events = new Map;
  intercepts = new Map;
  helloHandlers = [];
  panelKeyHandlers = [];
  panelCloseHandlers = [];
  panelResizeHandlers = [];
  settingsHandlers = [];
  running = new Map;
  inFlight = new Set;
  io;
  started = false;
  listening = false;
  announced = false;
  ended = false;
  constructor(name, version = "0.0.0") {
    this.name = name;
    this.version = version;
    this.io = { ...takeStdout(), end: () => process.exit(0) };
  }
  command(name, description, handler) {
    this.commands.set(name, { name, description, handler });
    if (this.announced)
      this.send({ type: "register_command", name, description });
    return this;
  }
  tool(name, description, schema, handler, options = {}) {
    const tool = { name, description, schema, handler, deferred: options.deferred ?? false };
    this.tools.set(name, tool);
    if (this.announced)
      this.send({ type: "register_tool", name, description, schema, deferred: tool.deferred });
    return this;
  }
  agent(name, description, prompt, options = {}) {
    const agent = { name, description, prompt, options };
    this.agents.set(name, agent);
    if (this.announced)
      this.send(agentFrame(agent));
    return this;
  }
  onHello(handler) {
    this.helloHandlers.push(handler);
    return this;
  }
  onSettingsChanged(handler) {
    this.settingsHandlers.push(handler);
    return this;
  }
  on(event, handler) {
    const list = this.events.get(event) ?? [];
    list.push(handler);
    this.events.set(event, list);
    if (this.announced)
      this.send(this.subscribeFrame());
    return this;
  }
  interceptToolCall(handler, options = {}) {
    return this.intercept("tool_call", options, (f) => f.event === "tool_call" ? handler({ toolId: f.tool_id, toolName: f.tool_name, toolArgs: f.tool_args, ...byAgent(f) }) : undefined);
  }
  interceptTurnStart(handler, options = {}) {
    return this.intercept("turn_start", options, (f) => f.event === "turn_start" ? handler({ step: f.step, ...byAgent(f) }) : undefined);
  }
  interceptAssistantMessage(handler, options = {}) {
    return this.intercept("assistant_message", options, (f) => f.event === "assistant_message" ? handler({ text: f.text, ...byAgent(f) }) : undefined);
  }
  interceptToolResult(handler, options = {}) {
    return this.intercept("tool_result", options, (f) => f.event === "tool_result" ? handler({ toolId: f.tool_id, toolName: f.tool_name, toolArgs: f.tool_args, content: f.content, isError: f.is_error, ...byAgent(f) }) : undefined);
  }
  onPanelKey(handler) {
    this.panelKeyHandlers.push(handler);
    return this;
  }
  onPanelClose(handler) {
    this.panelCloseHandlers.push(handler);
    return this;
  }
  onPanelResize(handler) {
    this.panelResizeHandlers.push(handler);
    return this;
  }
  notify(level, message) {
    this.send({ type: "notify", level, message });
  }
  clearNotes() {
    this.send({ type: "clear_notes" });
  }
  submit(text) {
    this.send({ type: "submit", text });
  }
  render(panelId, update) {
    this.send({ type: "panel_render", panel_id: panelId, ...update });
  }
  close(panelId) {
    this.send({ type: "panel_close", panel_id: panelId });
  }
  run() {
    if (this.started)
      return Promise.resolve();
    this.begin(this.io);
    return new Promise((resolve) => {
      readLines((line) => this.receive(line), () => void this.exit(false).then(resolve));
    });
  }
  async listen(opts) {
    const token = process.env[opts.tokenEnv];
    if (!token)
      throw new Error(`${this.name}: ${opts.tokenEnv} is not set; set it to the token zot sends (the variable zot's manifest names in transport.token_env)`);
    this.listening = true;
    let current = null;
    return listen({ hostname: opts.hostname ?? "127.0.0.1", port: opts.port, token, maxMessageBytes: MAX_MESSAGE_BYTES }, {
      accepting: () => current === null,
      open: (peer) => {
        current = peer;
        this.begin({ send: (frame) => peer.send(JSON.stringify(frame)), flush: async () => {}, end: () => peer.close(1000, "shutdown") });
      },
      message: (peer, text) => {
        if (peer === current && text.trim())
          this.receive(text.trim());
      },
      closed: (peer) => {
        if (peer !== current)
          return;
        current = null;
        this.endSession();
      }
    });
  }
  begin(io) {
    this.io = io;
    this.started = true;
    this.announced = false;
    this.ended = false;
    this.host = null;
    const capabilities = [];
    if (this.commands.size)
      capabilities.push("commands");
    if (this.tools.size)
      capabilities.push("tools");
    if (this.events.size || this.intercepts.size)
      capabilities.push("events");
    if (this.panelKeyHandlers.length || this.panelCloseHandlers.length)
      capabilities.push("panels");
    this.send({ type: "hello", name: this.name, version: this.version, capabilities });
  }
  endSession() {
    this.started = false;
    this.announced = false;
    for (const controller of this.running.values())
      controller.abort(new Error("zot disconnected"));
  }
  receive(line) {
    let raw;
    try {
      raw = JSON.parse(line);
    } catch {
      console.error(`[${this.name}] ignored a line from the host that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    const decoded = decodeHostFrame(raw);
    if (!decoded.ok)
      return "unknownType" in decoded ? undefined : this.refuse(raw, decoded.error);
    const frame = decoded.value;
    switch (frame.type) {
      case "hello_ack":
        this.handshake(frame);
        return;
      case "command_invoked":
        this.track(this.runCommand(frame.id, frame.name, frame.args));
        return;
      case "tool_call":
        this.track(this.runTool(frame.id, frame.name, frame.args, frame.agent));
        return;
      case "tool_cancel":
        this.running.get(frame.id)?.abort(new Error("cancelled by the host"));
        return;
      case "event":
        this.dispatchEvent(frame);
        return;
      case "event_intercept":
        this.track(this.runIntercept(frame));
        return;
      case "panel_key":
        this.fanOut(this.panelKeyHandlers, { panelId: frame.panel_id, key: frame.key, text: frame.text });
        return;
      case "panel_close":
        this.fanOut(this.panelCloseHandlers, frame.panel_id);
        return;
      case "panel_resize":
        this.fanOut(this.panelResizeHandlers, { panelId: frame.panel_id, width: frame.width, height: frame.height });
        return;
      case "shutdown":
        this.exit(true);
        return;
      case "settings_changed":
        if (this.host)
          this.host.settings = frame.settings;
        this.fanOut(this.settingsHandlers, frame.settings);
        return;
    }
  }
  refuse(raw, error) {
    console.error(`[${this.name}] ignored an invalid frame from the host: ${error}`);
    if (!isObject(raw) || typeof raw.id !== "string")
      return;
    const id = raw.id;
    const why = `${this.name} could not read the request: ${error}`;
    if (raw.type === "command_invoked")
      this.send({ type: "command_response", id, action: "noop", error: why });
    else if (raw.type === "tool_call")
      this.send({ type: "tool_result", id, content: [{ type: "text", text: why }], is_error: true, activate_tools: [] });
    else if (raw.type === "event_intercept")
      this.send({ type: "event_intercept_response", id, block: false, reason: "" });
  }
  async handshake(ack) {
    const host = {
      protocolVersion: ack.protocol_version,
      zotVersion: ack.zot_version,
      provider: ack.provider,
      model: ack.model,
      cwd: ack.cwd,
      extensionDir: ack.extension_dir,
      dataDir: ack.data_dir,
      capabilities: ack.capabilities,
      settings: ack.settings ?? {}
    };
    this.host = host;
    for (const handler of this.helloHandlers) {
      try {
        await handler(host);
      } catch (e) {
        console.error(`[${this.name}] onHello handler failed: ${errorText(e)}`);
      }
    }
    for (const c of this.commands.values())
      this.send({ type: "register_command", name: c.name, description: c.description });
    for (const t of this.tools.values())
      this.send({ type: "register_tool", name: t.name, description: t.description, schema: t.schema, deferred: t.deferred });
    for (const a of this.agents.values())
      this.send(agentFrame(a));
    if (this.events.size || this.intercepts.size)
      this.send(this.subscribeFrame());
    this.send({ type: "ready" });
    this.announced = true;
  }
  subscribeFrame() {
    const intercept = [];
    for (const [event, { options }] of this.intercepts) {
      if (options.timeoutMs === undefined && options.onTimeout === undefined)
        intercept.push(event);
      else
        intercept.push({ event, timeout_ms: options.timeoutMs ?? DEFAULT_INTERCEPT_TIMEOUT_MS, on_timeout: options.onTimeout ?? "allow" });
    }
    return { type: "subscribe", events: [...this.events.keys()], intercept };
  }
  intercept(event, options, handler) {
    this.intercepts.set(event, { handler, options });
    if (this.announced)
      this.send(this.subscribeFrame());
    return this;
  }
  async runCommand(id, name, args) {
    const command = this.commands.get(name) ?? [...this.commands.values()].find((c) => c.name.toLowerCase() === name.toLowerCase());
    let response;
    if (!command) {
      response = { action: "noop", error: `${this.name}: unknown command "/${name}"` };
    } else {
      try {
        const out = await command.handler(args, { id, name: command.name }) ?? { action: "noop" };
        response = isResponse(out) ? out : {
          action: "noop",
          error: `/${command.name} returned ${JSON.stringify(out)?.slice(0, 80)}, not prompt()/insert()/display()/openPanel()/noop()/error()`
        };
      } catch (e) {
        response = { action: "noop", error: `/${command.name} failed: ${errorText(e)}` };
      }
    }
    const frame = { type: "command_response", id, action: response.action };
    if (response.prompt !== undefined)
      frame.prompt = response.prompt;
    if (response.insert !== undefined)
      frame.insert = response.insert;
    if (response.display !== undefined)
      frame.display = response.display;
    if (response.openPanel !== undefined)
      frame.open_panel = response.openPanel;
    if (response.error !== undefined)
      frame.error = response.error;
    this.send(frame);
  }
  async runTool(id, name, args, agent) {
    const tool = this.tools.get(name);
    let result;
    if (!tool) {
      result = { content: [{ type: "text", text: `${this.name} has no tool named "${name}"` }], isError: true };
    } else {
      const controller = new AbortController;
      this.running.set(id, controller);
      try {
        const out = await tool.handler(args, {
          id,
          ...agent ? { agent } : {},
          signal: controller.signal,
          progress: (text) => {
            if (!controller.signal.aborted)
              this.send({ type: "tool_progress", id, text });
          }
        });
        result = typeof out === "string" ? { content: [{ type: "text", text: out }] } : out;
      } catch (e) {
        result = { content: [{ type: "text", text: `${name} failed: ${errorText(e)}` }], isError: true };
      } finally {
        this.running.delete(id);
      }
    }
    this.send({
      type: "tool_result",
      id,
      content: Array.isArray(result?.content) ? result.content : [],
      is_error: result?.isError ?? false,
      activate_tools: result?.activateTools ?? []
    });
  }
  async runIntercept(frame) {
    const entry = this.intercepts.get(frame.event);
    let decision = {};
    if (entry) {
      try {
        decision = await entry.handler(frame) ?? {};
      } catch (e) {
        const failClosed = entry.options.onTimeout === "block";
        console.error(`[${this.name}] ${frame.event} interceptor failed: ${errorText(e)}`);
        decision = failClosed ? { block: true, reason: `${this.name}: ${frame.event} interceptor failed (${errorText(e)}); blocked (fail-closed)` } : {};
      }
    }
    const reply = {
      type: "event_intercept_response",
      id: frame.id,
      block: decision.block ?? false,
      reason: decision.reason ?? ""
    };
    if (decision.modifiedArgs !== undefined)
      reply.modified_args = decision.modifiedArgs;
    if (decision.replaceText !== undefined)
      reply.replace_text = decision.replaceText;
    if (decision.replaceContent !== undefined)
      reply.replace_content = decision.replaceContent;
    if (decision.isError !== undefined)
      reply.is_error = decision.isError;
    this.send(reply);
  }
  dispatchEvent(frame) {
    const handlers = this.events.get(frame.event);
    if (!handlers)
      return;
    this.fanOut(handlers, eventPayload(frame));
  }
  fanOut(handlers, value) {
    for (const handler of handlers) {
      (async () => {
        try {
          await handler(value);
        } catch (e) {
          console.error(`[${this.name}] handler failed: ${errorText(e)}`);
        }
      })();
    }
  }
  send(frame) {
    if (this.started)
      this.io.send(frame);
    else if (!this.listening)
      console.error(`[${this.name}] dropped a ${frame.type} frame sent before run()`);
  }
  track(request) {
    this.inFlight.add(request);
    request.finally(() => this.inFlight.delete(request));
  }
  async exit(ack) {
    if (this.ended)
      return;
    this.ended = true;
    for (const controller of this.running.values())
      controller.abort(new Error("the host is shutting down"));
    if (this.inFlight.size) {
      let timer;
      const grace = new Promise((resolve) => timer = setTimeout(resolve, SHUTDOWN_GRACE_MS));
      await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
      clearTimeout(timer);
    }
    if (ack)
      this.send({ type: "shutdown_ack" });
    await this.io.flush();
    this.io.end();
  }
}
function isResponse(v) {
  return typeof v === "object" && v !== null && COMMAND_ACTIONS.includes(v.action);
}
function byAgent(frame) {
  return frame.agent ? { agent: frame.agent } : {};
}
function agentFrame(a) {
  const { tools, model, reasoning } = a.options;
  return {
    type: "register_agent",
    name: a.name,
    description: a.description,
    prompt: a.prompt,
    ...tools ? { tools } : {},
    ...model ? { model } : {},
    ...reasoning ? { reasoning } : {}
  };
}
function eventPayload(frame) {
  switch (frame.event) {
    case "session_start":
      return {};
    case "turn_start":
      return { step: frame.step, ...byAgent(frame) };
    case "turn_end":
      return { stop: frame.stop, ...frame.error === undefined ? {} : { error: frame.error }, ...byAgent(frame) };
    case "tool_call":
      return { toolId: frame.tool_id, toolName: frame.tool_name, toolArgs: frame.tool_args, ...byAgent(frame) };
    case "tool_confirmation_requested":
      return { toolId: frame.tool_id, toolName: frame.tool_name, toolPreview: frame.tool_preview, ...byAgent(frame) };
    case "assistant_message":
      return { text: frame.text, ...byAgent(frame) };
    case "checkpoint":
      return { checkpoint: frame.checkpoint, files: frame.files };
    case "rewind":
      return frame.prompt === undefined ? { restore: frame.restore, files: frame.files } : { restore: frame.restore, prompt: frame.prompt, files: frame.files };
    case "todo":
      return { items: frame.items };
  }
}
// sdk/typescript/src/responses.ts
var prompt = (text) => ({ action: "prompt", prompt: text });
var insert = (text) => ({ action: "insert", insert: text });
var display = (text) => ({ action: "display", display: text });
var openPanel = (panel) => {
  const content = { id: panel.id, title: panel.title ?? "", lines: panel.lines ?? [], footer: panel.footer ?? "" };
  if (panel.escKey)
    content.esc_key = true;
  return { action: "open_panel", openPanel: content };
};
var noop = () => ({ action: "noop" });
var error = (message) => ({ action: "noop", error: message });
var textBlock = (text) => ({ type: "text", text });
var imageBlock = (data, mimeType = "image/png") => ({ type: "image", mime_type: mimeType, data });
var text = (value, opts = {}) => ({
  content: [textBlock(value)],
  ...opts
});
var result = (content, opts = {}) => ({
  content,
  ...opts
});
export {
  Extension,
  display,
  error,
  imageBlock,
  insert,
  noop,
  openPanel,
  prompt,
  result,
  text,
  textBlock
};
