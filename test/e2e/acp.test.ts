// `zot acp` end to end: the built binary driven by the official ACP client library, every frame it
// writes checked against the library's JSON schema (acp-client.ts).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AcpClient, type Handlers } from "./acp-client.ts";
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
    expect(init.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { image: true, embeddedContext: true, audio: false }, mcpCapabilities: { http: true, sse: false } });
    expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ list: {}, resume: {}, close: {} });
    expect(init.authMethods?.map((m) => m.id)).toContain("anthropic");
    const cwd = project();
    const s = await c.agent.request("session/new", { cwd, mcpServers: [] });
    expect(s.modes?.availableModes.map((m) => m.id)).toEqual(["ask", "auto-edit", "yolo", "plan"]);
    const r = await c.agent.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "hi" }] });
    expect(r.stopReason).toBe("end_turn");
    expect(c.said(s.sessionId)).toBe("Hello from the scripted model.");
    const thought = c.of(s.sessionId, "agent_thought_chunk").map((u) => (u.content.type === "text" ? u.content.text : "")).join("");
    expect(thought).toBe("Let me think about it.");
    const commands = await c.waitFor((u) => u.update.sessionUpdate === "available_commands_update");
    expect(commands.update.sessionUpdate === "available_commands_update" && commands.update.availableCommands.map((x) => x.name)).toEqual(expect.arrayContaining(["compact", "init"]));
    // The session is a zot session file, in the project's folder.
    expect(sessionFiles(e2e.home).map((f) => f.slice(f.lastIndexOf("/") + 1))).toEqual([`${s.sessionId}.jsonl`]);
    expect(await c.close()).toMatchObject({ code: 0 });
    expect(c.problems).toEqual([]);
  });
});
