// web_fetch's one network call: a GET that sends no cookies or credentials and follows no redirect
// by itself (web-fetch.ts checks every hop). `connectTo`, when given, is the address already checked
// for the URL's host: a plain-http request goes to it with the Host header set, so a second DNS
// answer cannot send the request elsewhere (for https the certificate must match the host name).
import { send, type HttpResponse } from "../../platform/http.ts";

export async function webRequest(url: URL, connectTo: string | null, signal: AbortSignal): Promise<HttpResponse> {
  const headers: Record<string, string> = { accept: "text/html, text/plain, application/xhtml+xml, */*;q=0.5", "user-agent": "zot web_fetch" };
  let target = url;
  if (connectTo !== null && url.protocol === "http:") {
    target = new URL(url);
    target.hostname = connectTo.includes(":") ? `[${connectTo}]` : connectTo;
    headers.host = url.host;
  }
  const sent = await send(target.href, { headers, signal, redirects: "manual" });
  if (!sent.ok) throw new Error(sent.cause ?? sent.error);
  return sent.response;
}
