import type { Result } from "../../result.ts";
// The one-shot redirect target of a login (RFC 8252 §7.3): an HTTP listener on 127.0.0.1, on a
// random port unless the client is registered with a fixed one, that takes the first request to
// /callback, answers the browser with a line of text and closes — or closes after the timeout.
export type Callback = { params: URLSearchParams } | { error: string };

export type Loopback = {
  redirectUri: string;
  /** The query of the first callback, or a sentence once the wait timed out or the listener was closed. */
  wait(timeoutMs: number): Promise<Callback>;
  /** The browser's page is finished with this text. */
  answer(text: string): void;
  close(): void;
};

export function listenLoopback(port = 0): Result<{ loopback: Loopback }> {
  let deliver: (c: Callback) => void = () => {};
  const arrived = new Promise<Callback>((r) => (deliver = r));
  let reply: (text: string) => void = () => {};
  const replied = new Promise<string>((r) => (reply = r));
  let taken = false;
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port,
      async fetch(req) {
        const url = new URL(req.url);
        if (url.pathname !== "/callback" || taken) return new Response("not found", { status: 404 });
        taken = true;
        deliver({ params: url.searchParams });
        const text = await replied;
        return new Response(`${text}\n`, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
      },
    });
  } catch (e) {
    return { ok: false, error: `cannot listen on 127.0.0.1:${port} for the login's redirect: ${(e as Error).message}` };
  }
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    reply("zot: this login is over; you can close this tab.");
    deliver({ error: "the login was cancelled" });
    // Lets the browser's page finish before the listener goes.
    void server.stop();
  };
  return {
    ok: true,
    loopback: {
      redirectUri: `http://127.0.0.1:${server.port}/callback`,
      async wait(timeoutMs) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<Callback>(
          (r) => (timer = setTimeout(() => r({ error: `no answer from the browser within ${Math.ceil(timeoutMs / 1000)} s` }), timeoutMs)),
        );
        const got = await Promise.race([arrived, timeout]);
        clearTimeout(timer);
        return got;
      },
      answer: (text) => reply(text),
      close,
    },
  };
}
