import { describe, expect, test } from "bun:test";
import { parseSse, SseDecoder, sseChunks, type SseEvent } from "../../src/platform/sse.ts";

const enc = new TextEncoder();

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i < chunks.length) c.enqueue(chunks[i++]);
      else c.close();
    },
  });
}

async function parseChunks(chunks: Uint8Array[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of parseSse(streamOf(chunks))) out.push(e);
  return out;
}

const SAMPLE =
  ": a comment\r\n" +
  "event: greet\r\n" +
  "data: héllo 🌍\r\n" +
  "\r\n" +
  "data:no-space\n" +
  "data:  two spaces\n" +
  "unknown: field\n" +
  "id: 7\n" +
  "\n" +
  "event: lonely\n" +
  "\n" +
  "data: cr only\r\r" +
  "data: last without blank line";

const EXPECTED: SseEvent[] = [
  { event: "greet", data: "héllo 🌍" },
  { event: "message", data: "no-space\n two spaces", id: "7" },
  { event: "message", data: "cr only", id: "7" },
  { event: "message", data: "last without blank line", id: "7" },
];

describe("SSE parser", () => {
  test("parses comments, CRLF and CR line endings, multi-line data, ids and unknown fields", async () => {
    expect(await parseChunks([enc.encode(SAMPLE)])).toEqual(EXPECTED);
  });

  test("gives the same events for every two-way split, including mid-UTF-8 and between CR and LF", async () => {
    const bytes = enc.encode(SAMPLE);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await parseChunks([bytes.slice(0, cut), bytes.slice(cut)])).toEqual(EXPECTED);
    }
  });

  test("gives the same events when fed one byte at a time", async () => {
    const bytes = enc.encode(SAMPLE);
    expect(await parseChunks([...bytes].map((b) => new Uint8Array([b])))).toEqual(EXPECTED);
  });

  test("delivers the last event at end of input without its blank line", () => {
    const d = new SseDecoder();
    expect(d.push("event: message_stop\ndata: {}")).toEqual([]);
    expect(d.end()).toEqual([{ event: "message_stop", data: "{}" }]);
  });

  test("does not dispatch an event that has no data lines", () => {
    const d = new SseDecoder();
    expect(d.push("event: ping\n\n: keepalive\n\n")).toEqual([]);
    expect(d.end()).toEqual([]);
  });

  test("an empty piece between CR and LF does not split the line ending into two", () => {
    const d = new SseDecoder();
    const out = [...d.push("data: a\r"), ...d.push(""), ...d.push("\n\r\n")];
    expect(out).toEqual([{ event: "message", data: "a" }]);
  });

  test("handles a multi-megabyte data line arriving in small chunks", async () => {
    const big = "x".repeat(2_000_000);
    const bytes = enc.encode(`data: ${big}\n\n`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 64) chunks.push(bytes.slice(i, i + 64));
    const events = await parseChunks(chunks);
    expect(events.length).toBe(1);
    expect(events[0]!.data.length).toBe(big.length);
  });

  test("an aborted signal cancels reading a stream that never ends", async () => {
    const ctrl = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode("data: one\n\n"));
      },
    });
    const seen: string[] = [];
    for await (const e of parseSse(body, ctrl.signal)) {
      seen.push(e.data);
      ctrl.abort();
    }
    expect(seen).toEqual(["one"]);
  });

  test("the decoder keeps the last event id across events and the server's retry delay, for a reconnection", () => {
    const d = new SseDecoder();
    expect(d.push("id: e1\nretry: 500\ndata: \n\n").map((e) => [e.id, e.data])).toEqual([["e1", ""]]);
    d.push("retry: soon\nid: bad\u0000id\ndata: x\n\n");
    expect([d.lastEventId, d.retryMs]).toEqual(["e1", 500]);
    const next = new SseDecoder();
    next.resumeFrom(d.lastEventId, d.retryMs);
    expect(next.push("data: y\n\n")).toEqual([{ event: "message", data: "y", id: "e1" }]);
  });
});

test("sseChunks gives the events each chunk completes as one batch, skips chunks that complete none, and reports every chunk's arrival", async () => {
  const chunks = ["event: a\ndata: 1\n\ndata: 2\n\nda", "ta: 3", "\n\n", "data: 4"].map((t) => enc.encode(t));
  let arrived = 0;
  const batches: SseEvent[][] = [];
  for await (const b of sseChunks(streamOf(chunks), undefined, new SseDecoder(), () => arrived++)) batches.push(b);
  expect(batches).toEqual([
    [
      { event: "a", data: "1" },
      { event: "message", data: "2" },
    ],
    [{ event: "message", data: "3" }],
    [{ event: "message", data: "4" }],
  ]);
  expect(arrived).toBe(4);
});
