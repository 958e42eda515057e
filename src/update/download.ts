// One HTTP GET into memory through the HTTP door, given up when no byte arrives for the stall
// timeout (a hung server must not hang `zot update`), no larger than the caller's cap, and checked
// against the length the server announced. Errors are clauses the caller finishes with what was
// (not) changed. The request carries no credential, so the door follows a release host's redirect
// to its storage on another origin.
import { send } from "../platform/http.ts";

export type Downloaded = { ok: true; bytes: Uint8Array } | { ok: false; error: string /** The HTTP status of a refusal. */; status?: number };

export async function download(url: string, stallTimeoutMs: number, maxBytes: number): Promise<Downloaded> {
  const seconds = Math.round(stallTimeoutMs / 1000);
  const stallError = `no progress for ${seconds} second${seconds === 1 ? "" : "s"} while downloading ${url} (check the connection, or raise ZOT_INSTALL_TIMEOUT)`;
  const sent = await send(url, { headerTimeoutMs: stallTimeoutMs, idleTimeoutMs: stallTimeoutMs });
  if (!sent.ok) {
    if (sent.kind === "timeout") return { ok: false, error: stallError };
    if (sent.kind === "network") return { ok: false, error: `could not reach ${url} (${sent.cause}; check the connection and ZOT_INSTALL_BASE)` };
    return { ok: false, error: `${sent.error} (check ZOT_INSTALL_BASE)` };
  }
  const res = sent.response;
  if (!res.ok) {
    await res.discard();
    return { ok: false, error: `the server answered ${url} with HTTP ${res.status} (check ZOT_INSTALL_BASE)`, status: res.status };
  }
  const read = await res.readBytes(maxBytes);
  if (!read.ok) {
    if (read.kind === "idle") return { ok: false, error: stallError };
    if (read.kind === "too_large") return { ok: false, error: `${url} is larger than a release file can be (${read.error}; check ZOT_INSTALL_BASE)` };
    return { ok: false, error: `the download of ${url} was cut short after ${read.received} bytes` };
  }
  const received = read.value.length;
  const announced = Number(res.headers.get("content-length") ?? NaN);
  if (Number.isFinite(announced) && received < announced)
    return { ok: false, error: `the download of ${url} was cut short (${received} of ${announced} bytes)` };
  return { ok: true, bytes: read.value };
}
