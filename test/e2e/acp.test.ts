// `zot acp` end to end: the built binary driven by the official ACP client library, every frame it
// writes checked against the library's JSON schema (acp-client.ts).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { AcpClient, Terminals, type Handlers } from "./acp-client.ts";
import { FIXTURES, ROOT, sessionFiles, useZotHome } from "./zot.ts";

const e2e = useZotHome({ prefix: "zot-acp-e2e-", homeDir: "home" });

function project(): string {
  const dir = join(e2e.root, "project");
  mkdirSync(dir, { recursive: true });
  return dir;
}

function start(args: string[], handlers: Handlers = {}, env: Record<string, string> = {}): AcpClient {
  const c = new AcpClient(args, { home: e2e.home, cwd: e2e.root, env }, handlers);
  e2e.defer(async () => {
    if (c.proc.exitCode === null) c.proc.kill("SIGKILL");
    await c.proc.exited;
  });
  return c;
}

function script(lines: object[]): string {
  const path = join(e2e.root, "script.jsonl");
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return path;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("zot acp", () => {
  test("initialize states what zot offers; a turn streams thought and message chunks and ends with end_turn", async () => {
    const c = start(["--mock-script", script([{ thinking: "Let me think about it.", text: "Hello from the scripted model." }])]);
    const init = await c.initialize();
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true, audio: false },
      mcpCapabilities: { http: true, sse: false },
    });
    expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ list: {}, resume: {}, close: {} });
    expect(init.authMethods?.map((m) => m.id)).toContain("anthropic");
    const cwd = project();
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    expect(s.modes?.availableModes.map((m) => m.id)).toEqual(["ask", "auto-edit", "yolo", "plan"]);
    const r = await c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "hi" }] });
    expect(r.stopReason).toBe("end_turn");
    expect(c.said(s.sessionId)).toBe("Hello from the scripted model.");
    const thought = c
      .of(s.sessionId, "agent_thought_chunk")
      .map((u) => (u.content.type === "text" ? u.content.text : ""))
      .join("");
    expect(thought).toBe("Let me think about it.");
    const usage = c.of(s.sessionId, "usage_update").at(-1);
    expect(usage?.size).toBe(200_000);
    expect(usage?.used).toBeGreaterThan(0);
    const commands = await c.waitFor((u) => u.update.sessionUpdate === "available_commands_update");
    expect(commands.update.sessionUpdate === "available_commands_update" && commands.update.availableCommands.map((x) => x.name)).toEqual(
      expect.arrayContaining(["compact", "init"]),
    );
    // The session is a zot session file, in the project's folder.
    expect(
      sessionFiles(e2e.home)
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => f.slice(f.lastIndexOf("/") + 1)),
    ).toEqual([`${s.sessionId}.jsonl`]);
    expect(await c.close()).toMatchObject({ code: 0 });
    expect(c.problems).toEqual([]);
  });

  test("a write in ask mode asks the editor: allowed it lands with its diff, rejected it does not", async () => {
    const cwd = project();
    writeFileSync(join(cwd, "notes.txt"), "old line\n");
    const answers = ["allow_once", "reject_once"];
    const asked: string[] = [];
    const c = start(["--provider", "mock"], {
      permission: (req) => {
        asked.push(`${req.toolCall.title}: ${req.options.map((o) => o.kind).join(",")}`);
        return { outcome: { outcome: "selected", optionId: answers.shift() ?? "reject_once" } };
      },
    });
    await c.initialize();
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    await c.agent.request("session/set_mode", { sessionId: s.sessionId, modeId: "ask" });
    await c.waitFor((u) => u.update.sessionUpdate === "current_mode_update" && u.update.currentModeId === "ask");
    const write = (text: string) => `call write ${JSON.stringify({ path: "notes.txt", content: text })}`;
    const first = await c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: write("new line\n") }] });
    expect(first.stopReason).toBe("end_turn");
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("new line\n");
    const call = c.of(s.sessionId, "tool_call")[0]!;
    expect(call).toMatchObject({ kind: "edit", title: "Write notes.txt", locations: [{ path: join(cwd, "notes.txt") }] });
    expect(call.content).toEqual([{ type: "diff", path: join(cwd, "notes.txt"), oldText: "old line\n", newText: "new line\n" }]);
    const done = c.of(s.sessionId, "tool_call_update").find((u) => u.toolCallId === call.toolCallId && u.status === "completed");
    expect(done?.content?.[0]).toMatchObject({ type: "diff", newText: "new line\n" });
    const second = await c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: write("third\n") }] });
    expect(second.stopReason).toBe("end_turn");
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("new line\n");
    expect(c.of(s.sessionId, "tool_call_update").some((u) => u.status === "failed")).toBe(true);
    expect(asked).toEqual([
      `Write notes.txt: allow_once,allow_always,reject_once,reject_always`,
      `Write notes.txt: allow_once,allow_always,reject_once,reject_always`,
    ]);
    expect(c.said(s.sessionId)).toContain("mock: tool write failed: The user declined this tool call");
    await c.close();
    expect(c.problems).toEqual([]);
  });

  test("reject always stops asking for the same calls in this session; a cancelled request is a rejection", async () => {
    const cwd = project();
    let asked = 0;
    const c = start(["--provider", "mock", "--permission-mode", "ask"], {
      permission: () => {
        asked++;
        return asked === 1 ? { outcome: { outcome: "selected", optionId: "reject_always" } } : { outcome: { outcome: "cancelled" } };
      },
    });
    await c.initialize();
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    const run = (command: string) => ({ sessionId: s.sessionId, prompt: [{ type: "text" as const, text: `call bash ${JSON.stringify({ command })}` }] });
    await c.agent.request("session/prompt", run("touch a"));
    await c.agent.request("session/prompt", run("touch a"));
    expect(asked).toBe(1);
    await c.agent.request("session/prompt", run("mkdir b"));
    expect(asked).toBe(2);
    expect(existsSync(join(cwd, "a"))).toBe(false);
    expect(existsSync(join(cwd, "b"))).toBe(false);
    await c.close();
    expect(c.problems).toEqual([]);
  });

  test("bash shows its output as the call's content; the todo tool becomes the plan", async () => {
    const cwd = project();
    const c = start(["--provider", "mock", "--permission-mode", "yolo"]);
    await c.initialize();
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    const todo = {
      items: [
        { text: "write the tests", status: "in_progress" },
        { text: "ship", status: "pending" },
      ],
    };
    const r = await c.agent.request("session/prompt", {
      sessionId: s.sessionId,
      prompt: [{ type: "text", text: `call bash {"command":"echo out-of-bash"}\ncall todo ${JSON.stringify(todo)}` }],
    });
    expect(r.stopReason).toBe("end_turn");
    const bash = c.of(s.sessionId, "tool_call").find((u) => u.kind === "execute");
    expect(bash?.title).toBe("`echo out-of-bash`");
    const result = c.of(s.sessionId, "tool_call_update").find((u) => u.toolCallId === bash?.toolCallId && u.status === "completed");
    expect(JSON.stringify(result?.content)).toContain("out-of-bash");
    expect(c.of(s.sessionId, "plan").at(-1)?.entries).toEqual([
      { content: "write the tests", priority: "medium", status: "in_progress" },
      { content: "ship", priority: "medium", status: "pending" },
    ]);
    await c.close();
    expect(c.problems).toEqual([]);
  });

  test("a task call is one tool call in the editor, its subagent's work shown as its content; the subagent's own calls and text stay out", async () => {
    const cwd = project();
    const c = start(["--provider", "mock", "--permission-mode", "yolo"]);
    await c.initialize();
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    const task = { description: "look around", prompt: 'call bash {"command":"echo from-the-subagent"}' };
    const r = await c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: `call task ${JSON.stringify(task)}` }] });
    expect(r.stopReason).toBe("end_turn");
    const calls = c.of(s.sessionId, "tool_call");
    expect(calls).toHaveLength(1);
    const done = c.of(s.sessionId, "tool_call_update").find((u) => u.toolCallId === calls[0]?.toolCallId && u.status === "completed");
    expect(JSON.stringify(done?.content)).toContain("mock: tool bash returned: from-the-subagent");
    // The only text the editor is told is the main agent's answer.
    expect(c.said(s.sessionId)).toBe("mock: tool task returned: mock: tool bash returned: from-the-subagent");
    await c.close();
    expect(c.problems).toEqual([]);
  });

  test("a subagent's call that needs approval asks the editor, its title naming the agent", async () => {
    const cwd = project();
    const asked: string[] = [];
    const c = start(["--provider", "mock", "--permission-mode", "ask"], {
      permission: (req) => {
        asked.push(req.toolCall.title ?? "");
        return { outcome: { outcome: "selected", optionId: "allow_once" } };
      },
    });
    await c.initialize();
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    const task = { description: "make a file", prompt: 'call bash {"command":"touch made-by-subagent"}' };
    const r = await c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: `call task ${JSON.stringify(task)}` }] });
    expect(r.stopReason).toBe("end_turn");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/\(subagent general-\d+\)$/);
    expect(existsSync(join(cwd, "made-by-subagent"))).toBe(true);
    await c.close();
    expect(c.problems).toEqual([]);
  });

  test("session/cancel ends the turn with cancelled and stops the command it ran", async () => {
    const cwd = project();
    const c = start(["--provider", "mock", "--permission-mode", "yolo", "--sandbox", "off"]);
    await c.initialize();
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    const command = "echo $$ > pid; exec sleep 60";
    const turn = c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: `call bash ${JSON.stringify({ command })}` }] });
    await c.waitFor((u) => u.update.sessionUpdate === "tool_call");
    const pidFile = join(cwd, "pid");
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim() === "") await Bun.sleep(20);
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(processAlive(pid)).toBe(true);
    await c.agent.notify("session/cancel", { sessionId: s.sessionId });
    expect((await turn).stopReason).toBe("cancelled");
    expect(processAlive(pid)).toBe(false);
    // A cancel with nothing running changes nothing.
    await c.agent.notify("session/cancel", { sessionId: s.sessionId });
    const after = await c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "still here" }] });
    expect(after.stopReason).toBe("end_turn");
    expect(c.said(s.sessionId)).toContain("mock: still here");
    await c.close();
    expect(c.problems).toEqual([]);
  });

  test("the editor going away mid-turn ends zot cleanly, with the command it ran stopped", async () => {
    const cwd = project();
    const c = start(["--provider", "mock", "--permission-mode", "yolo", "--sandbox", "off"]);
    await c.initialize();
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    void c.agent
      .request("session/prompt", {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: `call bash ${JSON.stringify({ command: "echo $$ > pid; exec sleep 60" })}` }],
      })
      .catch(() => undefined);
    const pidFile = join(cwd, "pid");
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim() === "") await Bun.sleep(20);
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect((await c.close()).code).toBe(0);
    expect(processAlive(pid)).toBe(false);
    expect(c.problems).toEqual([]);
  });

  test("a key that a command prints is masked in every frame; @path in the text attaches the file", async () => {
    const cwd = project();
    writeFileSync(join(cwd, "mentioned.txt"), "mentioned file body\n");
    const key = "sk-acp-secret-key-0123456789abcdef";
    const c = start(["--provider", "mock", "--permission-mode", "yolo"], {}, { OPENAI_API_KEY: key });
    await c.initialize();
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    await c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: `call bash {"command":"echo key=$OPENAI_API_KEY"}` }] });
    expect(c.said(s.sessionId)).toContain("key=");
    await c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "read @mentioned.txt" }] });
    expect(c.said(s.sessionId)).toContain("mentioned file body");
    await c.close();
    expect(c.lines.length).toBeGreaterThan(0);
    expect(c.lines.filter((l) => l.includes(key))).toEqual([]);
    expect(c.problems).toEqual([]);
  });

  test("stop reasons: a turn an extension blocks is a refusal, one --max-steps stops is max_turn_requests", async () => {
    const cwd = project();
    const guarded = start(
      ["--provider", "mock", "-e", join(FIXTURES, "guard")],
      {},
      { ZOT_TEST_GUARD: JSON.stringify({ intercept: ["turn_start"], block_step: 1 }) },
    );
    await guarded.initialize();
    const g = await guarded.agent.request("session/new", { cwd, mcpServers: [] });
    expect((await guarded.agent.request("session/prompt", { sessionId: g.sessionId, prompt: [{ type: "text", text: "hello" }] })).stopReason).toBe("refusal");
    await guarded.close();
    expect(guarded.problems).toEqual([]);
    const limited = start(["--provider", "mock", "--permission-mode", "yolo", "--max-steps", "1"]);
    await limited.initialize();
    const l = await limited.agent.request("session/new", { cwd, mcpServers: [] });
    expect(
      (await limited.agent.request("session/prompt", { sessionId: l.sessionId, prompt: [{ type: "text", text: `call bash {"command":"true"}` }] })).stopReason,
    ).toBe("max_turn_requests");
    await limited.close();
    expect(limited.problems).toEqual([]);
  });

  test("prompts take embedded resources, file links and images", async () => {
    const cwd = project();
    writeFileSync(join(cwd, "linked.txt"), "text of the linked file\n");
    const c = start(["--provider", "mock"]);
    const init = await c.initialize();
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true);
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const r = await c.agent.request("session/prompt", {
      sessionId: s.sessionId,
      prompt: [
        { type: "text", text: "look at these" },
        { type: "resource", resource: { uri: "file:///buffer/unsaved.ts", text: "const unsaved = 1;" } },
        { type: "resource_link", uri: `file://${join(cwd, "linked.txt")}`, name: "linked.txt" },
        { type: "image", mimeType: "image/png", data: pixel },
      ],
    });
    expect(r.stopReason).toBe("end_turn");
    const said = c.said(s.sessionId);
    expect(said).toContain("mock: look at these");
    expect(said).toContain(`<resource uri="file:///buffer/unsaved.ts">\nconst unsaved = 1;\n</resource>`);
    expect(said).toContain("text of the linked file");
    const audio = await c.agent
      .request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "audio", mimeType: "audio/wav", data: "AAAA" }] })
      .catch((e: unknown) => e);
    expect(audio).toMatchObject({ code: -32602 });
    expect(String((audio as Error).message)).toContain("prompt[0] is audio, which zot does not take");
    await c.close();
    expect(c.problems).toEqual([]);
  });

  test("session/list and session/load replay a stored conversation; zot -c continues it in the terminal, and the editor sees that", async () => {
    const cwd = project();
    const first = start(["--provider", "mock", "--permission-mode", "yolo"]);
    await first.initialize();
    const s = await first.agent.request("session/new", { cwd, mcpServers: [] });
    await first.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: `call bash {"command":"echo replayed"}` }] });
    expect((await first.close()).code).toBe(0);

    const cont = await e2e.run(["-p", "--provider", "mock", "-c", "from the terminal"], { cwd });
    expect(cont.code).toBe(0);
    expect(cont.stdout).toContain("mock: from the terminal");
    expect(sessionFiles(e2e.home).filter((f) => f.endsWith(".jsonl"))).toHaveLength(1);

    const second = start(["--provider", "mock"]);
    await second.initialize();
    const listed = await second.agent.request("session/list", { cwd });
    expect(listed.sessions.map((x) => x.sessionId)).toEqual([s.sessionId]);
    expect(listed.sessions[0]?.cwd).toBe(cwd);
    const everywhere = await second.agent.request("session/list", {});
    expect(everywhere.sessions.map((x) => x.sessionId)).toEqual([s.sessionId]);
    await second.agent.request("session/load", { sessionId: s.sessionId, cwd, mcpServers: [] });
    const users = second.of(s.sessionId, "user_message_chunk").map((u) => (u.content.type === "text" ? u.content.text : ""));
    expect(users).toEqual([`call bash {"command":"echo replayed"}`, "from the terminal"]);
    const tool = second.of(s.sessionId, "tool_call")[0];
    expect(tool).toMatchObject({ kind: "execute", status: "completed" });
    expect(JSON.stringify(tool?.content)).toContain("replayed");
    expect(second.said(s.sessionId)).toContain("mock: from the terminal");
    // The loaded session goes on in the same file.
    await second.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "back in the editor" }] });
    await second.agent.request("session/close", { sessionId: s.sessionId });
    const gone = await second.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "x" }] }).catch((e: unknown) => e);
    expect(String((gone as Error).message)).toContain(`there is no open session "${s.sessionId}"`);
    expect(await second.close()).toMatchObject({ code: 0 });
    const text = readFileSync(sessionFiles(e2e.home).find((f) => f.endsWith(".jsonl"))!, "utf8");
    expect(text).toContain("back in the editor");
    expect(second.problems).toEqual([]);
  });

  test("an MCP server the editor passes starts through zot's MCP client and its tools work", async () => {
    const cwd = project();
    const c = start(["--provider", "mock", "--permission-mode", "yolo", "--sandbox", "off"]);
    await c.initialize();
    const server: acp.McpServer = {
      name: "fromeditor",
      command: Bun.which("python3") ?? "python3",
      args: [join(ROOT, "test/fixtures/mcp/legacy_server.py")],
      env: [],
    };
    const s = await c.agent.request("session/new", { cwd, mcpServers: [server] });
    const r = await c.agent.request("session/prompt", {
      sessionId: s.sessionId,
      prompt: [{ type: "text", text: `call mcp__fromeditor__echo {"text":"through mcp"}` }],
    });
    expect(r.stopReason).toBe("end_turn");
    const call = c.of(s.sessionId, "tool_call")[0];
    expect(call).toMatchObject({ kind: "other", title: "mcp__fromeditor__echo" });
    expect(JSON.stringify(c.of(s.sessionId, "tool_call_update").find((u) => u.status === "completed")?.content)).toContain("echo: through mcp");
    await c.close();
    expect(c.problems).toEqual([]);
  });

  test("built-in, Markdown and extension commands are offered and run as slash commands; notes reach the editor; a panel fails clearly", async () => {
    const cwd = project();
    mkdirSync(join(e2e.home, "commands"), { recursive: true });
    writeFileSync(join(e2e.home, "commands", "shout.md"), "---\ndescription: shout it\nargument-hint: words\n---\nShout: $ARGUMENTS\n");
    const c = start(["--provider", "mock", "-e", join(FIXTURES, "toolbox")]);
    await c.initialize();
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    const offered = await c.waitFor((u) => u.update.sessionUpdate === "available_commands_update");
    const commands = offered.update.sessionUpdate === "available_commands_update" ? offered.update.availableCommands : [];
    expect(commands.map((x) => x.name)).toEqual(expect.arrayContaining(["compact", "init", "greet", "ask", "panel", "shout"]));
    expect(commands.find((x) => x.name === "shout")).toEqual({ name: "shout", description: "shout it", input: { hint: "words" } });
    const prompt = (text: string) => c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text }] });
    expect((await prompt("/greet editor")).stopReason).toBe("end_turn");
    expect(c.said(s.sessionId)).toContain("hello editor");
    expect((await prompt("/ask a question")).stopReason).toBe("end_turn");
    expect(c.said(s.sessionId)).toContain("mock: asked: a question");
    await prompt("/shout loud");
    expect(c.said(s.sessionId)).toContain("mock: Shout: loud");
    expect((await prompt("/compact")).stopReason).toBe("end_turn");
    expect(c.said(s.sessionId)).toContain("The conversation was summarised");
    await prompt("/noisy");
    expect(c.said(s.sessionId)).toContain("[toolbox] note from toolbox");
    const panel = await prompt("/panel").catch((e: unknown) => e);
    expect(String((panel as Error).message)).toContain("opens a panel, which ACP editors cannot show");
    const unknown = await prompt("/nosuch").catch((e: unknown) => e);
    expect(String((unknown as Error).message)).toContain("unknown command /nosuch");
    await c.close();
    expect(c.problems).toEqual([]);
  });
});

describe("zot acp in an editor that offers its files and terminals", () => {
  test("read, edit and write go through the editor's buffers, not the disk", async () => {
    const cwd = project();
    const path = join(cwd, "notes.txt");
    writeFileSync(path, "saved on disk\n");
    const buffers = new Map([[path, "unsaved buffer\n"]]);
    const reads: string[] = [];
    const c = start(["--provider", "mock", "--permission-mode", "yolo"], {
      readTextFile: (req) => {
        reads.push(req.path);
        return { content: buffers.get(req.path) ?? "" };
      },
      writeTextFile: (req) => {
        buffers.set(req.path, req.content);
        return {};
      },
    });
    await c.initialize({ fs: { readTextFile: true, writeTextFile: true } });
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    const prompt = (text: string) => c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text }] });
    await prompt(`call read {"path":"notes.txt"}`);
    expect(c.said(s.sessionId)).toContain("mock: tool read returned: unsaved buffer");
    await prompt(`call edit ${JSON.stringify({ path: "notes.txt", edits: [{ oldText: "unsaved", newText: "edited" }] })}`);
    expect(buffers.get(path)).toBe("edited buffer\n");
    const edit = c.of(s.sessionId, "tool_call").find((u) => u.kind === "edit");
    expect(edit?.content).toEqual([{ type: "diff", path, oldText: "unsaved", newText: "edited" }]);
    await prompt(`call write ${JSON.stringify({ path: "new.txt", content: "made in the editor\n" })}`);
    expect(buffers.get(join(cwd, "new.txt"))).toBe("made in the editor\n");
    // The disk is the editor's business: zot wrote nothing there itself.
    expect(readFileSync(path, "utf8")).toBe("saved on disk\n");
    expect(existsSync(join(cwd, "new.txt"))).toBe(false);
    expect(reads).toEqual([path, path]);
    await c.close();
    expect(c.problems).toEqual([]);
  });

  test("bash runs in an editor terminal, within zot's sandbox, shown in the tool call; a cancel kills it there", async () => {
    const cwd = project();
    const terminals = new Terminals();
    const c = start(["--provider", "mock", "--permission-mode", "yolo"], { terminals });
    await c.initialize({ terminal: true });
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    const r = await c.agent.request("session/prompt", {
      sessionId: s.sessionId,
      prompt: [{ type: "text", text: `call bash {"command":"echo in-the-editor; exit 3"}` }],
    });
    expect(r.stopReason).toBe("end_turn");
    expect(terminals.created).toHaveLength(1);
    expect(terminals.created[0]?.cwd).toBe(cwd);
    // The shell line bash runs (five words) comes wrapped in zot's sandbox launcher, as it would in zot's own shell.
    const argv = [terminals.created[0]!.command, ...(terminals.created[0]!.args ?? [])];
    expect(argv.at(-1)).toBe("echo in-the-editor; exit 3");
    expect(argv.length).toBeGreaterThan(5);
    const call = c.of(s.sessionId, "tool_call")[0]!;
    const updates = c.of(s.sessionId, "tool_call_update").filter((u) => u.toolCallId === call.toolCallId);
    expect(updates.at(-1)).toMatchObject({ status: "failed", content: [{ type: "terminal", terminalId: "term-1" }] });
    expect(c.said(s.sessionId)).toContain("in-the-editor");
    expect(c.said(s.sessionId)).toContain("[Exit code 3]");
    const turn = c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: `call bash {"command":"sleep 60"}` }] });
    await c.waitFor(
      (u) => u.update.sessionUpdate === "tool_call_update" && u.update.content?.[0]?.type === "terminal" && u.update.content[0].terminalId === "term-2",
    );
    await c.agent.notify("session/cancel", { sessionId: s.sessionId });
    expect((await turn).stopReason).toBe("cancelled");
    expect(processAlive(terminals.pids[1]!)).toBe(false);
    await c.close();
    expect(c.problems).toEqual([]);
  });
});

describe("zot acp without a key", () => {
  test("a session that needs a key fails with auth_required; authenticate names what to set; with the key it works", async () => {
    const cwd = project();
    const c = start([]);
    await c.initialize();
    const denied = await c.agent.request("session/new", { cwd, mcpServers: [] }).catch((e: unknown) => e);
    expect(denied).toMatchObject({ code: -32000 });
    expect(String((denied as Error).message)).toContain("No API key found for any provider");
    const auth = await c.agent.request("authenticate", { methodId: "openai" }).catch((e: unknown) => e);
    expect(auth).toMatchObject({ code: -32000 });
    expect(String((auth as Error).message)).toContain("No API key for openai: set OPENAI_API_KEY");
    const unknown = await c.agent.request("authenticate", { methodId: "nosuch" }).catch((e: unknown) => e);
    expect(String((unknown as Error).message)).toContain(`unknown method "nosuch"`);
    await c.close();
    expect(c.problems).toEqual([]);
    // A closed local port: the background model-list refresh must not reach the real provider.
    const keyed = start(["--base-url", "http://127.0.0.1:9/v1"], {}, { OPENAI_API_KEY: "sk-test-acp-000000000000" });
    await keyed.initialize();
    expect(await keyed.agent.request("authenticate", { methodId: "openai" })).toEqual({});
    const s = await keyed.agent.request("session/new", { cwd, mcpServers: [] });
    expect(s.sessionId).toMatch(/^\d{8}-\d{6}-[0-9a-f]{8}$/);
    await keyed.close();
    expect(keyed.problems).toEqual([]);
  });
});

describe("zot acp with a bad client", () => {
  test("malformed JSON, unknown methods, requests before initialize and bad params get JSON-RPC errors; stdin closing ends zot cleanly", async () => {
    const proc = Bun.spawn([join(ROOT, "dist", "zot"), "acp", "--provider", "mock"], {
      cwd: e2e.root,
      env: { ...process.env, ZOT_HOME: e2e.home },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const sink = proc.stdin as import("bun").FileSink;
    const lines = [
      "{not json",
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } }),
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: 1 } }),
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "session/frobnicate", params: {} }),
      JSON.stringify({ jsonrpc: "2.0", id: 4, method: "session/new", params: { cwd: "relative/dir", mcpServers: [] } }),
      JSON.stringify({ jsonrpc: "2.0", id: 5, method: "session/prompt", params: { sessionId: "nope", prompt: [] } }),
      JSON.stringify({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "nope" } }),
      JSON.stringify([1, 2]),
    ];
    sink.write(lines.join("\n") + "\n");
    sink.end();
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    const frames = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string }; result?: unknown });
    const byId = (id: unknown) => frames.find((f) => f.id === id);
    expect(frames.filter((f) => f.id === null).map((f) => f.error?.code)).toEqual([-32700, -32600]);
    expect(byId(1)?.error).toMatchObject({ code: -32600, message: "session/new before initialize: send initialize first." });
    expect(byId(2)?.result).toMatchObject({ protocolVersion: 1 });
    expect(byId(3)?.error?.code).toBe(-32601);
    expect(byId(4)?.error).toMatchObject({ code: -32602, message: 'session/new: "cwd" must be an absolute path (got "relative/dir")' });
    expect(byId(5)?.error?.code).toBe(-32002);
  });
});
