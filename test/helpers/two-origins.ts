// Two real HTTP servers on 127.0.0.1, two ports and so two origins: `first` answers every request
// with a redirect to `second`, which records what reached it. A credentialed request must never
// show up in `second.seen`.
export type Seen = { method: string; path: string; headers: Record<string, string>; body: string };

export type TwoOrigins = {
  first: string;
  second: string;
  /** Requests that reached the second origin. */
  seen: Seen[];
  stop(): void;
};

export function startTwoOrigins(status = 307, answer: () => Response = () => Response.json({ data: [] })): TwoOrigins {
  const seen: Seen[] = [];
  const second = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      seen.push({ method: req.method, path: new URL(req.url).pathname, headers: Object.fromEntries(req.headers), body: await req.text() });
      return answer();
    },
  });
  const first = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      return new Response(null, { status, headers: { location: `http://127.0.0.1:${second.port}${path}` } });
    },
  });
  return {
    first: `http://127.0.0.1:${first.port}`,
    second: `http://127.0.0.1:${second.port}`,
    seen,
    stop() {
      first.stop(true);
      second.stop(true);
    },
  };
}

/** A server whose every answer starts and never ends: `chunk` again and again, forever. */
export function startEndless(contentType: string, chunk: string, prefix = ""): { url: string; sent: () => number; stop(): void } {
  let sent = 0;
  const bytes = new TextEncoder().encode(chunk);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch() {
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          if (prefix !== "") c.enqueue(new TextEncoder().encode(prefix));
        },
        pull(c) {
          sent += bytes.length;
          c.enqueue(bytes);
        },
      });
      return new Response(body, { headers: { "content-type": contentType } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, sent: () => sent, stop: () => server.stop(true) };
}
