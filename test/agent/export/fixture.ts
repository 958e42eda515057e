// A conversation for the export tests: a prompt with an attached file and image, thinking, an edit
// whose result is a diff, a failed command, and hostile text in every place a transcript holds text.
import { deflateSync } from "node:zlib";
import type { Message } from "../../../src/agent/messages.ts";
import type { ExportSource } from "../../../src/agent/export/export-file.ts";

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A real `w`×`h` red PNG. */
export function redPng(w = 4, h = 3): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rows = Buffer.concat(
    Array.from({ length: h }, () => Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => [255, 0, 0]).flat())])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Text that would run script or fetch something if it reached the page unescaped. */
export const hostile = (beacon: string): string =>
  `<script>window.__pwned = 1</script><img src="${beacon}/img" onerror="window.__pwned = 2"><iframe src="${beacon}/frame"></iframe></pre></details><a href="javascript:alert(1)">x</a>`;

const usage = { input: 1200, output: 80, cacheRead: 0, cacheWrite: 0, cost: 0.0042 };

export function conversation(beacon: string): ExportSource {
  const evil = hostile(beacon);
  const t = Date.parse("2026-12-01T10:00:00Z");
  const messages: Message[] = [
    {
      role: "user",
      ts: t,
      content: [
        { type: "text", text: `Fix the greeting in hello.ts ${evil}` },
        { type: "text", text: `<file path="notes.txt">\nremember ${evil}\n</file>` },
        { type: "image", mimeType: "image/png", data: redPng().toString("base64") },
        { type: "image", mimeType: `image/png" onload="window.__pwned=3`, data: "AAAA" },
      ],
    },
    {
      role: "assistant",
      ts: t + 1000,
      provider: "anthropic",
      model: "claude-test",
      stop: "tool_use",
      usage,
      content: [
        { type: "thinking", thinking: `The greeting says hullo ${evil}` },
        { type: "text", text: "I will edit the file." },
        { type: "toolCall", id: "c1", name: "edit", args: { path: "hello.ts", edits: [{ oldText: "hullo", newText: "hello" }] } },
        { type: "toolCall", id: "c2", name: "bash", args: { command: `npm test ${evil}` } },
      ],
    },
    {
      role: "toolResult",
      ts: t + 2000,
      toolCallId: "c1",
      toolName: "edit",
      isError: false,
      content: [
        {
          type: "text",
          text: `Edited hello.ts (1 change)\n\n--- hello.ts\n+++ hello.ts\n@@ -1,2 +1,2 @@\n-console.log("hullo")\n+console.log("hello")\n export {}`,
        },
      ],
    },
    {
      role: "toolResult",
      ts: t + 2100,
      toolCallId: "c2",
      toolName: "bash",
      isError: true,
      content: [{ type: "text", text: `npm ERR! ${evil}\n\n[Exit code 1]` }],
    },
    {
      role: "assistant",
      ts: t + 3000,
      provider: "openai",
      model: "gpt-test",
      stop: "end_turn",
      usage,
      content: [{ type: "text", text: `Done: the greeting now says hello. ${evil}` }],
    },
  ];
  return {
    messages,
    models: [
      { provider: "anthropic", model: "claude-test", calls: 1, usage },
      { provider: "openai", model: "gpt-test", calls: 1, usage },
    ],
    total: { input: 2400, output: 160, cacheRead: 0, cacheWrite: 0, cost: 0.0084 },
    title: `Greeting fix ${evil}`,
    session: "/home/u/.local/state/zot/sessions/x/20261201-100000-abcd.jsonl",
    cwd: "/home/u/project",
    started: new Date(t).toISOString(),
  };
}
