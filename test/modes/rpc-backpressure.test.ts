// Backpressure in `zot rpc`: while the client is not reading (the output says it is not writable),
// no further command is read from stdin and no answer is produced; once it reads again, every
// command is answered in order. A real runtime with the mock provider; the output is the mode's
// own ModeOutput with a writable() the test holds.
import { expect, test } from "bun:test";
import { runRpc } from "../../src/modes/rpc.ts";
import { capture, mockRuntime } from "./helpers.ts";

test("while the output is full, zot reads no further command; when it drains, every command is answered in order", async () => {
  const { runtime, home, dispose } = await mockRuntime();
  try {
    const c = capture();
    let full = true;
    let release: () => void = () => {};
    const drained = new Promise<void>((r) => (release = r));
    const writable = (): Promise<void> => (full ? drained : Promise.resolve());
    let pulled = 0;
    const enc = new TextEncoder();
    async function* input(): AsyncIterable<Uint8Array> {
      for (let i = 0; i < 5; i++) {
        pulled++;
        yield enc.encode(`{"id":${i},"type":"ping"}\n`);
      }
    }
    const run = runRpc(runtime, runtime.host, { ...c.io, writable, home, input: input() });
    await Bun.sleep(100);
    expect(pulled).toBe(1);
    expect(c.out).toBe("");
    full = false;
    release();
    expect(await run).toBe(0);
    expect(pulled).toBe(5);
    const ids = c.out
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { id: number }).id);
    expect(ids).toEqual([0, 1, 2, 3, 4]);
  } finally {
    await dispose();
  }
});

test("a prompt accepted while the output is full does not start its turn until the output drains", async () => {
  const { runtime, home, dispose } = await mockRuntime();
  try {
    const c = capture();
    let calls = 0;
    let full = false;
    let release: () => void = () => {};
    const drained = new Promise<void>((r) => (release = r));
    // The first wait (reading the prompt line) passes; the output then fills before the turn starts.
    const writable = (): Promise<void> => {
      calls++;
      if (calls === 2) full = true;
      return full ? drained : Promise.resolve();
    };
    const run = runRpc(runtime, runtime.host, {
      ...c.io,
      writable,
      home,
      input: (async function* () {
        yield new TextEncoder().encode('{"id":1,"type":"prompt","message":"hello"}\n');
      })(),
    });
    await Bun.sleep(100);
    const before = c.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string });
    expect(before.map((f) => f.type)).toEqual(["response"]);
    full = false;
    release();
    expect(await run).toBe(0);
    const after = c.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; text?: string });
    expect(after.find((f) => f.type === "done")?.text).toBe("mock: hello");
  } finally {
    await dispose();
  }
});

test("past the limit of prompt text waiting its turn (64 MiB; 2 MiB here), the next command is read only once a queued turn starts", async () => {
  const { runtime, home, dispose } = await mockRuntime();
  try {
    const c = capture();
    const big = "q".repeat(1024 * 1024);
    const commands = [
      { id: "slow", type: "prompt", message: 'call bash {"command":"sleep 2"}' },
      { id: "a", type: "prompt", message: `a ${big}` },
      { id: "b", type: "prompt", message: `b ${big}` },
      { id: "c", type: "prompt", message: `c ${big}` },
      { id: "ping", type: "ping" },
    ];
    const input = (async function* () {
      for (const cmd of commands) yield new TextEncoder().encode(`${JSON.stringify(cmd)}\n`);
    })();
    expect(await runRpc(runtime, runtime.host, { ...c.io, home, input, maxQueuedPromptBytes: 2 * 1024 * 1024 })).toBe(0);
    const frames = c.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; id?: string; text?: string });
    const firstDone = frames.findIndex((f) => f.type === "done");
    const pong = frames.findIndex((f) => f.type === "response" && f.id === "ping");
    expect(firstDone).toBeGreaterThanOrEqual(0);
    expect(pong).toBeGreaterThan(firstDone);
    expect(frames.filter((f) => f.type === "done")).toHaveLength(4);
  } finally {
    await dispose();
  }
}, 60_000);
