// The HTTP of OAuth: JSON documents fetched and posted through the HTTP door without following
// redirects (a redirect would carry a code or a secret along), and the RFC 6749 error of a refusal as text.
import type { Result } from "../../result.ts";
import { isObject } from "../../json.ts";
import type { JsonObject } from "../../protocol.ts";
import { send, type HttpRequest } from "../../platform/http.ts";

/** Metadata, registrations and token answers are a few KiB; a server that sends more is not answering. */
const MAX_DOCUMENT_BYTES = 1024 * 1024;

export type Fetched = Result<{ status: number; doc: JsonObject | null }>;

/** One request; `doc` is the body when it is a JSON object. Only a failure to get an answer is an error (`cannot reach <what>: …`). */
export async function requestJson(url: string, init: Pick<HttpRequest, "method" | "headers" | "body"> & { timeoutMs: number }, what: string): Promise<Fetched> {
  const { timeoutMs, ...rest } = init;
  const sent = await send(url, { ...rest, redirects: "refuse", headerTimeoutMs: timeoutMs, idleTimeoutMs: timeoutMs });
  if (!sent.ok) return { ok: false, error: `cannot reach ${what}: ${sent.cause ?? sent.error}` };
  const read = await sent.response.readText(MAX_DOCUMENT_BYTES);
  if (!read.ok) return { ok: false, error: `cannot read the answer of ${what}: ${read.error}` };
  let doc: unknown = null;
  try {
    doc = JSON.parse(read.value);
  } catch {
    doc = null;
  }
  return { ok: true, status: sent.response.status, doc: isObject(doc) ? doc : null };
}

/** `error (error_description)` of an OAuth error body, else the HTTP status. */
export function oauthError(doc: JsonObject | null, status: number): string {
  if (!doc || typeof doc.error !== "string") return `HTTP ${status}`;
  return `${doc.error}${typeof doc.error_description === "string" ? ` (${doc.error_description.slice(0, 200)})` : ""}`;
}

/** The first of `urls` that answers 2xx with a JSON object, or every failure. */
export async function firstDocument(urls: string[], timeoutMs: number): Promise<{ ok: true; url: string; doc: JsonObject } | { ok: false; tried: string[] }> {
  const tried: string[] = [];
  for (const url of urls) {
    const got = await requestJson(url, { headers: { Accept: "application/json" }, timeoutMs }, url);
    if (!got.ok) tried.push(got.error);
    else if (got.status < 200 || got.status > 299) tried.push(`${url} answered HTTP ${got.status}`);
    else if (!got.doc) tried.push(`${url} is not a JSON object`);
    else return { ok: true, url, doc: got.doc };
  }
  return { ok: false, tried };
}
