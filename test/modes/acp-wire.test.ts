// The ACP decoders at zot's boundary: what a line of JSON-RPC is, and what each bad field is told.
import { describe, expect, test } from "bun:test";
import { decodeFrame, ErrorCode, Peer, RpcError } from "../../src/modes/acp/jsonrpc.ts";
import { decodeInitialize, decodeNewSession, decodePermissionOutcome, decodePrompt } from "../../src/modes/acp/wire.ts";

function rejects(fn: () => unknown): RpcError {
  try {
    fn();
  } catch (err) {
    if (err instanceof RpcError) return err;
    throw err;
  }
  throw new Error("expected an RpcError");
}

describe("decodeFrame", () => {
  test("tells requests, notifications and responses apart", () => {
    expect(decodeFrame('{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":"/"}}')).toEqual({
      kind: "request",
      id: 7,
      method: "session/new",
      params: { cwd: "/" },
    });
    expect(decodeFrame('{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}')).toEqual({
      kind: "notification",
      method: "session/cancel",
      params: { sessionId: "s" },
    });
    expect(decodeFrame('{"jsonrpc":"2.0","id":"a","result":{}}')).toEqual({ kind: "result", id: "a", result: {} });
    expect(decodeFrame('{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"no"}}')).toEqual({ kind: "error", id: 3, code: -32603, message: "no" });
  });

  test("names what is wrong with a line that is not a message", () => {
    expect(decodeFrame("{oops")).toMatchObject({ kind: "invalid", id: null, code: ErrorCode.parse });
    expect(decodeFrame("[]")).toMatchObject({
      kind: "invalid",
      code: ErrorCode.invalidRequest,
      message: expect.stringContaining("batches are not part of ACP"),
    });
    expect(decodeFrame('{"id":1,"method":"x"}')).toMatchObject({ kind: "invalid", id: 1, message: 'The message lacks "jsonrpc": "2.0".' });
    expect(decodeFrame('{"jsonrpc":"2.0","id":{},"method":"x"}')).toMatchObject({
      kind: "invalid",
      id: null,
      message: expect.stringContaining('"id" of x must be a string or an integer'),
    });
    expect(decodeFrame('{"jsonrpc":"2.0","id":1,"method":"x","params":3}')).toMatchObject({
      kind: "invalid",
      id: 1,
      message: '"params" of x must be an object (got number).',
    });
  });
});

describe("the decoders of the editor's requests", () => {
  test("initialize: capabilities not stated are not offered", () => {
    expect(decodeInitialize({ protocolVersion: 1 })).toEqual({
      protocolVersion: 1,
      capabilities: { readTextFile: false, writeTextFile: false, terminal: false },
      client: null,
    });
    expect(decodeInitialize({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true }, terminal: true } }).capabilities).toEqual({
      readTextFile: true,
      writeTextFile: false,
      terminal: true,
    });
    expect(rejects(() => decodeInitialize({ protocolVersion: "1" })).message).toBe('initialize: "protocolVersion" must be a non-negative integer (got "1")');
  });

  test("session/new: an absolute cwd and servers zot can start", () => {
    expect(
      decodeNewSession({
        cwd: "/p",
        mcpServers: [
          { name: "a", command: "/bin/a", args: ["x"], env: [{ name: "K", value: "v" }] },
          { type: "http", name: "b", url: "https://b.example/mcp", headers: [] },
        ],
      }),
    ).toEqual({
      cwd: "/p",
      mcpServers: [
        { type: "stdio", name: "a", command: "/bin/a", args: ["x"], env: [{ name: "K", value: "v" }] },
        { type: "http", name: "b", url: "https://b.example/mcp", headers: [] },
      ],
    });
    expect(rejects(() => decodeNewSession({ cwd: "/p", mcpServers: [{ type: "sse", name: "s", url: "https://s", headers: [] }] })).message).toContain(
      "uses the SSE transport, which zot does not offer",
    );
    expect(rejects(() => decodeNewSession({ cwd: "/p", mcpServers: [{ name: "a", command: "/bin/a", args: [1] }] })).message).toBe(
      "session/new: mcpServers[0].args must be an array of strings",
    );
    expect(rejects(() => decodeNewSession({ mcpServers: [] })).code).toBe(ErrorCode.invalidParams);
  });

  test("session/prompt: each block by its type", () => {
    const p = decodePrompt({
      sessionId: "s",
      prompt: [
        { type: "text", text: "hi" },
        { type: "resource", resource: { uri: "file:///a", text: "body" } },
        { type: "resource", resource: { uri: "file:///b.png", mimeType: "image/png", blob: "AAAA" } },
        { type: "resource_link", uri: "file:///c", name: "c" },
      ],
    });
    expect(p.prompt).toEqual([
      { type: "text", text: "hi" },
      { type: "resource", uri: "file:///a", text: "body" },
      { type: "resource_blob", uri: "file:///b.png", mimeType: "image/png", blob: "AAAA" },
      { type: "resource_link", uri: "file:///c", name: "c" },
    ]);
    expect(rejects(() => decodePrompt({ sessionId: "s", prompt: [{ type: "image", mimeType: "image/bmp", data: "x" }] })).message).toContain(
      "prompt[0].mimeType must be image/png, image/jpeg, image/gif or image/webp",
    );
    expect(rejects(() => decodePrompt({ sessionId: "s", prompt: [{ type: "video" }] })).message).toContain(
      'prompt[0].type must be text, image, resource_link or resource (got "video")',
    );
  });

  test("the editor's answer to a permission request", () => {
    expect(decodePermissionOutcome({ outcome: { outcome: "selected", optionId: "allow_once" } })).toEqual({ outcome: "selected", optionId: "allow_once" });
    expect(decodePermissionOutcome({ outcome: { outcome: "cancelled" } })).toEqual({ outcome: "cancelled" });
    expect(() => decodePermissionOutcome({ outcome: "yes" })).toThrow(RpcError);
  });
});

describe("Peer", () => {
  test("our requests settle with the editor's answers; a disconnect rejects what is still open", async () => {
    const written: string[] = [];
    const peer = new Peer((line) => written.push(line));
    const answered = peer.request("fs/read_text_file", { path: "/a" });
    const open = peer.request("terminal/output", {});
    expect(JSON.parse(written[0]!)).toEqual({ jsonrpc: "2.0", id: 1, method: "fs/read_text_file", params: { path: "/a" } });
    expect(peer.settle({ kind: "result", id: 1, result: { content: "x" } })).toBe(true);
    expect(await answered).toEqual({ content: "x" });
    expect(peer.settle({ kind: "result", id: 99, result: null })).toBe(false);
    peer.close();
    await expect(open).rejects.toThrow("The editor disconnected before answering.");
  });
});
