import { describe, expect, test } from "bun:test";
import { errorMessage, isRetryableStatus, retryAfterMs } from "../../../src/agent/providers/retry.ts";
import { createProvider } from "../../../src/agent/providers/index.ts";
import { anthropicEvents } from "../../helpers/provider-server.ts";
import { collect } from "../../helpers/collect-stream.ts";

const headers = (h: Record<string, string>) => new Headers(h);

describe("retry policy", () => {
  test("retries 408, 409, 429, 5xx and 529 but not 400, 401, 403, 404 or 413", () => {
    for (const s of [408, 409, 429, 500, 502, 503, 504, 529]) expect(isRetryableStatus(s)).toBe(true);
    for (const s of [400, 401, 403, 404, 413, 422]) expect(isRetryableStatus(s)).toBe(false);
  });

  test("reads retry-after-ms, retry-after in seconds and as an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs(headers({ "retry-after-ms": "250" }), now)).toBe(250);
    expect(retryAfterMs(headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
    expect(retryAfterMs(headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(retryAfterMs(headers({ "retry-after": "0.5" }), now)).toBe(500);
    expect(retryAfterMs(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:07 GMT" }), now)).toBe(7000);
    expect(retryAfterMs(headers({ "retry-after": "Wed, 31 Dec 2025 23:00:00 GMT" }), now)).toBe(0);
    expect(retryAfterMs(headers({ "retry-after": "3600" }), now)).toBe(3_600_000);
    expect(retryAfterMs(headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
  });

  test("takes the provider's message from JSON error bodies and the start of anything else", () => {
    expect(errorMessage('{"error":{"type":"x_error","message":"nope"}}')).toBe("nope (x_error)");
    expect(errorMessage('{"error":"plain"}')).toBe("plain");
    expect(errorMessage('{"message":"top level"}')).toBe("top level");
    expect(errorMessage("<html>\n<body>Bad Gateway</body></html>")).toBe("<html> <body>Bad Gateway</body></html>");
    expect(errorMessage("")).toBe("");
  });

  test("a refused connection is retried visibly, then reported with the address and without the key", async () => {
    const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = probe.port;
    await probe.stop(true);
    const slept: number[] = [];
    const secret = "sk-refused-secret-123456";
    const provider = createProvider({
      provider: "anthropic",
      apiKey: secret,
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { sleep: async (ms) => void slept.push(ms), baseDelayMs: 10 },
    });
    const { events, message } = await collect(provider, { model: "claude-sonnet-4-5" });
    expect(slept).toEqual([10, 20]);
    const retries = events.filter((e) => e.type === "retry");
    expect(retries.map((e) => (e.type === "retry" ? [e.attempt, e.attempts, e.delayMs] : []))).toEqual([
      [2, 3, 10],
      [3, 3, 20],
    ]);
    expect(message.stop).toBe("error");
    expect(message.error).toStartWith(`could not connect to anthropic at http://127.0.0.1:${port} after 3 attempts (`);
    expect(message.error).toEndWith("check your network and --base-url");
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  test("a connection closed before the first byte is retried and the next attempt succeeds", async () => {
    let connections = 0;
    const body = anthropicEvents({ kind: "turn", text: "second try" }, "claude-sonnet-4-5").join("");
    const tcp = Bun.listen<{ answered: boolean }>({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        open(socket) {
          socket.data = { answered: false };
          connections++;
          if (connections === 1) socket.end();
        },
        data(socket) {
          if (socket.data.answered) return;
          socket.data.answered = true;
          const bytes = Buffer.byteLength(body);
          socket.write(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${bytes}\r\nconnection: close\r\n\r\n${body}`);
          socket.end();
        },
      },
    });
    try {
      const provider = createProvider({ provider: "anthropic", apiKey: "k-123456", baseUrl: `http://127.0.0.1:${tcp.port}`, retry: { sleep: async () => {} } });
      const { message } = await collect(provider, { model: "claude-sonnet-4-5" });
      expect(connections).toBe(2);
      expect(message.stop).toBe("end_turn");
      expect(message.content).toEqual([{ type: "text", text: "second try" }]);
    } finally {
      tcp.stop(true);
    }
  });
});
