// A release mirror on 127.0.0.1 for the installer and `zot update` tests: it serves directories the
// release script wrote, at /<view>/<file>, each view a way a real mirror or network can go wrong.
import { existsSync, readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { sha256Hex } from "../../src/update/release-source.ts";
import { signatureFile, signers } from "../../scripts/release/sign.ts";

export type View = {
  /** A directory written by scripts/release.ts. */
  dir: string;
  /** Files whose SHA256SUMS line gets a wrong hash. */
  tamper?: string[];
  /** Files served whole but only their first half (an honest, short response). */
  truncate?: string[];
  /** Files whose connection is cut after half of the announced length (served via a redirect). */
  cut?: string[];
  /** Files left out, with their SHA256SUMS lines: a release without this platform. */
  omit?: string[];
  /** Files served in place of the real ones (with matching SHA256SUMS lines). */
  replace?: Record<string, Uint8Array>;
  /** Never answer. */
  hang?: boolean;
  /** No SHA256SUMS.sig. */
  unsigned?: boolean;
  /** SHA256SUMS changed but the release's own signature served with it: a mirror without the key. */
  forged?: boolean;
  /** SHA256SUMS.sig made with this key (PKCS#8 PEM) instead of the release's: a key zot does not pin. */
  signedBy?: string;
};

export type ReleaseServer = { url: (view: string) => string; requests: string[]; stop: () => void };

/**
 * The signature a view serves: the release's own for its own SHA256SUMS (or a forged view), else
 * SHA256SUMS signed again with `key` — the release key for views that break something else,
 * another key for `signedBy`.
 */
async function signature(view: View, key: string | undefined): Promise<Response> {
  if (view.unsigned) return new Response("not found\n", { status: 404 });
  const own = readFileSync(join(view.dir, "SHA256SUMS.sig"));
  const text = sums(view);
  const by = view.signedBy ?? key;
  if (view.forged || by === undefined || (view.signedBy === undefined && text === readFileSync(join(view.dir, "SHA256SUMS"), "utf8"))) return new Response(own);
  const keys = await signers({ ZOT_RELEASE_SIGNING_KEY: by });
  if (typeof keys === "string") throw new Error(keys);
  return new Response(await signatureFile(new TextEncoder().encode(text), keys));
}

function sums(view: View): string {
  const lines = readFileSync(join(view.dir, "SHA256SUMS"), "utf8").trimEnd().split("\n");
  return `${lines
    .filter((l) => !view.omit?.includes(l.slice(66)))
    .map((l) => {
      const name = l.slice(66);
      const replaced = view.replace?.[name];
      if (replaced) return `${sha256Hex(replaced)}  ${name}`;
      return view.tamper?.includes(name) ? `${"0".repeat(64)}  ${name}` : l;
    })
    .join("\n")}\n`;
}

/**
 * Bun.serve sends streamed bodies chunked, so a response cut short needs a plain socket: it
 * announces the whole length, sends the first half and closes. The release server redirects there.
 */
function startCutter(lookup: (path: string) => Uint8Array | null): { port: () => number; stop: () => void } {
  const server = createServer((socket) => {
    socket.once("data", (chunk) => {
      const path = chunk.toString("latin1").split(" ")[1] ?? "/";
      const data = lookup(path);
      if (!data) {
        socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
        return;
      }
      socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${data.length}\r\nconnection: close\r\n\r\n`);
      socket.end(data.subarray(0, Math.floor(data.length / 2)));
    });
    socket.on("error", () => undefined);
  });
  server.listen(0, "127.0.0.1");
  return { port: () => (server.address() as AddressInfo).port, stop: () => server.close() };
}

/** `signingKey`: the release's key (PKCS#8 PEM), to sign again a SHA256SUMS a view rewrote. */
export function startReleaseServer(views: Record<string, View>, signingKey?: string): ReleaseServer {
  const requests: string[] = [];
  const fileOf = (view: View, file: string): Uint8Array | null => {
    const path = join(view.dir, file);
    return view.replace?.[file] ?? (existsSync(path) ? new Uint8Array(readFileSync(path)) : null);
  };
  const cutter = startCutter((path) => {
    const [, name = "", file = ""] = path.split("/");
    const view = views[name];
    return view && file ? fileOf(view, file) : null;
  });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // A hung view must stay hung for as long as the client waits.
    idleTimeout: 0,
    fetch(req): Response | Promise<Response> {
      const [, name = "", file] = new URL(req.url).pathname.split("/");
      requests.push(`${name}/${file}`);
      const view = views[name];
      if (!view || !file) return new Response("no such release\n", { status: 404 });
      if (view.hang) return new Promise<Response>(() => {});
      if (file === "SHA256SUMS") return new Response(sums(view));
      if (file === "SHA256SUMS.sig") return signature(view, signingKey);
      if (view.omit?.includes(file)) return new Response("not found\n", { status: 404 });
      const data = fileOf(view, file);
      if (!data) return new Response("not found\n", { status: 404 });
      if (view.truncate?.includes(file)) return new Response(data.subarray(0, Math.floor(data.length / 2)));
      if (view.cut?.includes(file)) return Response.redirect(`http://127.0.0.1:${cutter.port()}/${name}/${file}`, 302);
      return new Response(data);
    },
  });
  return {
    url: (view) => `http://127.0.0.1:${server.port}/${view}`,
    requests,
    stop: () => {
      server.stop(true);
      cutter.stop();
    },
  };
}
