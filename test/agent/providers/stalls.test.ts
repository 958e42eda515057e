// Streams that never hang and requests that never leak: real servers on 127.0.0.1 that stall,
// trickle pings, flood, redirect or answer with a web page, against short configured limits.
import { afterEach, describe, expect, test } from "bun:test";
import { createProvider } from "../../../src/agent/providers/index.ts";
import type { StreamLimits } from "../../../src/agent/providers/limits.ts";
import type { ProviderEvent } from "../../../src/agent/provider.ts";
import { anthropicEvents } from "../../helpers/provider-server.ts";
import { collect } from "../../helpers/collect-stream.ts";

const MODEL = "claude-sonnet-4-5";
const SHORT: Partial<StreamLimits> = { connectTimeoutMs: 300, idleTimeoutMs: 300, pingTimeoutMs: 600 };
const stops: (() => void)[] = [];
afterEach(() => {
  for (const s of stops.splice(0)) s();
});

const encoder = new TextEncoder();
const turn = (text: string): string[] => anthropicEvents({ kind: "turn", text }, MODEL);

/** A server whose handler gets the request number and returns a Response (or never answers). */
function serve(handler: (n: number, req: Request) => Response | Promise<Response>): { url: string; count: () => number } {
  let n = 0;
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: (req) => handler(++n, req) });
  stops.push(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}`, count: () => n };
}

/** An SSE body that sends `first` events, then runs `then` on the open controller. */
function sse(events: string[], then?: (c: ReadableStreamDefaultController<Uint8Array>) => void, close = true): Response {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const e of events) c.enqueue(encoder.encode(e));
      if (then) then(c);
      else if (close) c.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

const forever = (): Promise<Response> => new Promise<Response>(() => {});

function provider(url: string, limits: Partial<StreamLimits> = SHORT) {
  return createProvider({ provider: "anthropic", apiKey: "sk-test-key-123456", baseUrl: url, retry: { sleep: async () => {} }, limits });
}

const retries = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === "retry" ? [e] : []));

describe("timeouts", () => {
  test("a server that never sends headers is retried after the connect timeout, then reported", async () => {
    const s = serve(forever);
    const { events, message } = await collect(provider(s.url), { model: MODEL });
    expect(s.count()).toBe(3);
    expect(retries(events).map((r) => [r.attempt, r.reason])).toEqual([
      [2, "no response from anthropic within 0.3 s"],
      [3, "no response from anthropic within 0.3 s"],
    ]);
    expect(message.stop).toBe("error");
    expect(message.error).toBe(
      `anthropic at ${s.url} did not answer within 0.3 s after 3 attempts; check your network and --base-url, or raise connect_timeout in config.json`,
    );
  });

  test("headers and then silence count as nothing received: the request is retried and the retry succeeds", async () => {
    // Raw TCP, so the headers go out at once (an HTTP server library may hold them until the first body byte).
    let connections = 0;
    const body = turn("second time lucky").join("");
    // The request may arrive in several reads (its body is streamed): each connection is answered once.
    const answered = new WeakSet<object>();
    const tcp = Bun.listen<undefined>({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        data(socket) {
          if (answered.has(socket)) return;
          answered.add(socket);
          connections++;
          if (connections === 1) socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n");
          else {
            socket.write(
              `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
            );
            socket.end();
          }
        },
      },
    });
    stops.push(() => tcp.stop(true));
    const { events, message } = await collect(provider(`http://127.0.0.1:${tcp.port}`), { model: MODEL });
    expect(retries(events).map((r) => r.reason)).toEqual(["anthropic sent nothing for 0.3 s"]);
    expect(message.stop).toBe("end_turn");
    expect(message.content).toEqual([{ type: "text", text: "second time lucky" }]);
  });

  test("a stream that stops after message_start fails clearly and is not retried", async () => {
    const s = serve(() => sse(turn("never").slice(0, 1), () => {}));
    const { events, message } = await collect(provider(s.url), { model: MODEL });
    expect(s.count()).toBe(1);
    expect(retries(events)).toEqual([]);
    expect(message.stop).toBe("error");
    expect(message.error).toBe("anthropic sent nothing for 0.3 s in the middle of the response, so it was stopped; try again");
  });

  test("SSE comment pings keep a stream alive only until the ping timeout", async () => {
    let timer: ReturnType<typeof setInterval> | undefined;
    stops.push(() => clearInterval(timer));
    const s = serve(() =>
      sse(turn("x").slice(0, 2), (c) => {
        timer = setInterval(() => {
          try {
            c.enqueue(encoder.encode(": ping\n\n"));
          } catch {
            clearInterval(timer);
          }
        }, 50);
      }),
    );
    const { message } = await collect(provider(s.url), { model: MODEL });
    expect(message.error).toBe("anthropic sent only keep-alive pings for 0.6 s in the middle of the response, so it was stopped; try again");
  });

  test("a slow stream whose events keep coming finishes", async () => {
    const events = turn("slow but steady");
    const s = serve(() =>
      sse([], (c) => {
        let i = 0;
        const t = setInterval(() => {
          try {
            if (i < events.length) c.enqueue(encoder.encode(events[i++]));
            else {
              clearInterval(t);
              c.close();
            }
          } catch {
            // The client read message_stop and went away first.
            clearInterval(t);
          }
        }, 100);
        stops.push(() => clearInterval(t));
      }),
    );
    const { message } = await collect(provider(s.url), { model: MODEL });
    expect(message.stop).toBe("end_turn");
  });
});

describe("caps and retry waits", () => {
  test("a response past the text cap is stopped with a clear error", async () => {
    const huge = "y".repeat(20_000);
    const s = serve(() => sse(turn(huge)));
    const { message } = await collect(provider(s.url, { ...SHORT, maxResponseBytes: 4096 }), { model: MODEL });
    expect(message.stop).toBe("error");
    expect(message.error).toBe("the anthropic response passed 4 KiB of text and was stopped (raise max_response_mib in config.json if this is expected)");
  });

  test("one line without an end, larger than the cap, is stopped too", async () => {
    const s = serve(() => sse([...turn("x").slice(0, 1), "data: " + "z".repeat(50_000)], () => {}));
    const { message } = await collect(provider(s.url, { ...SHORT, maxResponseBytes: 4096 }), { model: MODEL });
    expect(message.error).toBe(
      "anthropic sent one event larger than 4 KiB, so the response was stopped (raise max_response_mib in config.json if this is expected)",
    );
  });

  test("a Retry-After longer than 60 s is reported instead of waited", async () => {
    const s = serve(() => Response.json({ error: { type: "rate_limit_error", message: "slow down" } }, { status: 429, headers: { "retry-after": "3600" } }));
    const { events, message } = await collect(provider(s.url), { model: MODEL });
    expect(s.count()).toBe(1);
    expect(retries(events)).toEqual([]);
    expect(message.error).toBe(
      "anthropic asked to wait 3600 s before trying again (anthropic answered HTTP 429: slow down (rate_limit_error)); zot does not wait that long on its own, try again later",
    );
  });

  test("a short Retry-After is waited, and the retry says how long", async () => {
    const s = serve((n) => (n === 1 ? new Response("busy", { status: 503, headers: { "retry-after": "2" } }) : sse(turn("ok"))));
    const { events, message } = await collect(provider(s.url), { model: MODEL });
    expect(retries(events).map((r) => [r.attempt, r.attempts, r.delayMs, r.reason])).toEqual([[2, 3, 2000, "anthropic answered HTTP 503: busy"]]);
    expect(message.stop).toBe("end_turn");
  });
});

describe("what the server answers with", () => {
  test("an HTML page with status 200 is reported as one", async () => {
    const s = serve(() => new Response("<html><title>Sign in to the Wi-Fi</title></html>", { headers: { "content-type": "text/html; charset=utf-8" } }));
    const { message } = await collect(provider(s.url), { model: MODEL });
    expect(message.error).toBe(
      "anthropic answered with an HTML page (HTTP 200, text/html) instead of an event stream: <html><title>Sign in to the Wi-Fi</title></html>; check --base-url",
    );
  });
});

describe("redirects", () => {
  for (const kind of ["anthropic", "openai"] as const) {
    test(`${kind}: a redirect to another origin is refused, naming the target, and nothing reaches it`, async () => {
      const seen: Request[] = [];
      const other = serve((_, req) => {
        seen.push(req);
        return sse(turn("stolen"));
      });
      const s = serve(() => new Response(null, { status: 307, headers: { location: `${other.url}/collect` } }));
      const p = createProvider({
        provider: kind,
        apiKey: "sk-test-key-123456",
        baseUrl: kind === "openai" ? `${s.url}/v1` : s.url,
        retry: { sleep: async () => {} },
        limits: SHORT,
      });
      const { message } = await collect(p, { model: kind === "openai" ? "gpt-4o" : MODEL });
      expect(seen).toEqual([]);
      expect(message.stop).toBe("error");
      expect(message.error).toContain(`redirected the request (HTTP 307) to ${other.url}/collect, another origin; zot does not follow it`);
    });
  }

  test("a same-origin redirect is followed with the same request", async () => {
    const bodies: string[] = [];
    const s = serve(async (_, req) => {
      const path = new URL(req.url).pathname;
      if (path === "/v1/messages") return new Response(null, { status: 308, headers: { location: "/moved/v1/messages" } });
      bodies.push(await req.text());
      return sse(turn("found you"));
    });
    const { message } = await collect(provider(s.url), { model: MODEL });
    expect(message.content).toEqual([{ type: "text", text: "found you" }]);
    expect(JSON.parse(bodies[0]!).model).toBe(MODEL);
  });
});

describe("bodies that are not streams", () => {
  test("a huge error body is read only in part, and the status still explains the failure", async () => {
    const s = serve(() => new Response("x".repeat(5 * 1024 * 1024), { status: 400 }));
    const { message } = await collect(provider(s.url), { model: MODEL });
    expect(message.error).toStartWith("anthropic rejected the request (HTTP 400: xxxx");
    expect(message.error?.length).toBeLessThan(500);
  });

  test("a JSON answer that stalls after its headers fails after the idle timeout instead of hanging", async () => {
    const s = serve(
      () =>
        new Response(
          new ReadableStream({
            start(c) {
              c.enqueue(encoder.encode('{"partial":'));
            },
          }),
          { headers: { "content-type": "application/json" } },
        ),
    );
    const { message } = await collect(provider(s.url), { model: MODEL });
    expect(message.error).toBe("anthropic answered with JSON instead of an event stream, then anthropic sent nothing for 0.3 s; check --base-url");
  });
});
