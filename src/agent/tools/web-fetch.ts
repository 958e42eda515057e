// The `web_fetch` tool: one page as readable text. Every hop (the URL and each redirect) is checked
// before it is requested: http or https only, no credentials in the URL, the config's domain
// lists, and — unless config.json allows private addresses — every address the host resolves to
// must be public. The body is read up to a cap; HTML becomes Markdown-like text, other text types
// come as they are, anything else is refused with a sentence.
import { readConfig, type WebFetchSettings } from "../config.ts";
import type { ToolOutput } from "../tool.ts";
import { errorText, stringArg, textResult } from "./common.ts";
import { defineTool, stringParam } from "./define.ts";
import { htmlTitle, htmlToText } from "./html-text.ts";
import { webRequest } from "./web-request.ts";
import type { HttpResponse } from "../../platform/http.ts";

const MAX_REDIRECTS = 5;
const TIMEOUT_MS = 30_000;
/** Bytes read from the response at most; a longer page is cut here. */
export const WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024;
/** Characters of text returned at most. */
export const WEB_FETCH_MAX_CHARS = 100_000;

const DESCRIPTION = `Fetch a web page (http or https) and return it as readable text: HTML is turned into Markdown-like text (headings, links, lists, code, tables); plain text, JSON and XML come as they are. Images, PDFs and other binary content are refused.
Argument: url. Redirects are followed (at most ${MAX_REDIRECTS}). Text over ${WEB_FETCH_MAX_CHARS / 1000}k characters is cut, with a note. Local and private network addresses are refused unless the user allowed them.`;

const DEFAULTS: WebFetchSettings = { allowPrivate: false, allow: [], deny: [] };

export const webFetchTool = defineTool({
  name: "web_fetch",
  description: DESCRIPTION,
  params: { url: stringParam("The page's http or https URL.", { nonEmpty: true, hint: "(an http or https URL)" }) },
  preview(args) {
    return `web_fetch ${stringArg(args, "url") ?? "?"}`;
  },
  approval({ url }) {
    return { kind: "command", command: `GET ${url}` };
  },
  async execute({ url }, ctx) {
    const raw = url.trim();
    const settings = readConfig(ctx.home).values.webFetch ?? DEFAULTS;
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(TIMEOUT_MS)]);
    try {
      return await fetchPage(raw, settings, signal);
    } catch (err) {
      if (ctx.signal.aborted) return textResult(`Aborted while fetching ${raw}.`, true);
      if (signal.aborted) return textResult(`Fetching ${raw} took longer than ${TIMEOUT_MS / 1000} s and was stopped.`, true);
      return textResult(`Could not fetch ${raw} (${errorText(err)}).`, true);
    }
  },
});

async function fetchPage(raw: string, settings: WebFetchSettings, signal: AbortSignal): Promise<ToolOutput> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return textResult(`"${raw}" is not a URL; web_fetch takes an absolute http or https URL.`, true);
  }
  for (let hop = 0; ; hop++) {
    const refusal = refuseUrl(url, settings, hop > 0);
    if (refusal) return textResult(refusal, true);
    const address = await checkAddress(url, settings);
    if (typeof address !== "string" && address !== null) return textResult(address.refusal, true);
    const res = await webRequest(url, address, signal);
    if (res.status >= 300 && res.status < 400 && res.headers.has("location")) {
      await res.body?.cancel();
      if (hop >= MAX_REDIRECTS) return textResult(`${raw} redirected more than ${MAX_REDIRECTS} times; stopped at ${url.href}.`, true);
      try {
        url = new URL(res.headers.get("location")!, url);
      } catch {
        return textResult(`${url.href} redirected to an invalid URL (${res.headers.get("location")}).`, true);
      }
      continue;
    }
    return readPage(url, res, raw);
  }
}

/** Why `url` may not be requested, or null. */
function refuseUrl(url: URL, settings: WebFetchSettings, redirected: boolean): string | null {
  const what = redirected ? `The page redirected to ${url.href}, which` : `${url.href}`;
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${what} is not an http or https URL; web_fetch reads only web pages.`;
  if (url.username !== "" || url.password !== "")
    return `${redirected ? "The page redirected to a URL that" : "The URL"} carries a user name or password; web_fetch sends no credentials, so it was not requested.`;
  const host = hostName(url);
  const matches = (domain: string) => host === domain || host.endsWith(`.${domain}`);
  if (settings.deny.some(matches)) return `${redirected ? `The page redirected to ${host}, which` : host} is on the webFetch deny list in config.json.`;
  if (settings.allow.length > 0 && !settings.allow.some(matches))
    return `${redirected ? `The page redirected to ${host}, which` : host} is not on the webFetch allow list in config.json (${settings.allow.join(", ")}).`;
  return null;
}

function hostName(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
}

const PRIVATE_HINT = 'set "webFetch": {"allowPrivate": true} in config.json to allow local and private addresses';

/**
 * The address to connect to (checked), null when anything goes (allowPrivate), or why the host is
 * refused. Every address the name resolves to must be public: one private answer is enough to refuse.
 */
async function checkAddress(url: URL, settings: WebFetchSettings): Promise<string | null | { refusal: string }> {
  if (settings.allowPrivate) return null;
  // Loaded here, not at the top: node:net and node:dns cost every run's start-up, and only a
  // web_fetch needs them.
  const [{ lookup }, { isIP }, { isPrivateAddress }] = await Promise.all([import("node:dns/promises"), import("node:net"), import("./web-address.ts")]);
  const host = hostName(url);
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  const blocked = addresses.find(isPrivateAddress);
  if (blocked !== undefined) {
    const via = blocked === host ? "" : ` (it resolves to ${blocked})`;
    return { refusal: `${host}${via} is a loopback or private network address, which web_fetch refuses; ${PRIVATE_HINT}.` };
  }
  if (addresses.length === 0) return { refusal: `${host} did not resolve to any address.` };
  return addresses[0]!;
}

const HTML_TYPES = ["text/html", "application/xhtml+xml"];
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|ld\+json)|[a-z]+\/[a-z0-9.+-]*\+(json|xml)$)/;

async function readPage(url: URL, res: HttpResponse, asked: string): Promise<ToolOutput> {
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "" && !HTML_TYPES.includes(type) && !TEXT_TYPES.test(type)) {
    await res.body?.cancel();
    const size = res.headers.get("content-length");
    return textResult(
      `${url.href} is ${type}${size ? ` (${size} bytes)` : ""}, not text; web_fetch reads only text pages (HTML, plain text, JSON, XML).`,
      true,
    );
  }
  const { bytes, cut } = await readCapped(res);
  if (type === "" && bytes.includes(0)) return textResult(`${url.href} has no content type and looks binary; web_fetch reads only text pages.`, true);
  const body = decoderFor(res.headers.get("content-type")).decode(bytes);
  const isHtml = HTML_TYPES.includes(type) || (type === "" && /^\s*<(!doctype html|html)/i.test(body));
  const title = isHtml ? htmlTitle(body) : null;
  let text = isHtml ? htmlToText(body, url) : body;
  const notes: string[] = [];
  if (cut) notes.push(`[The page is larger than ${WEB_FETCH_MAX_BYTES / (1024 * 1024)} MiB; only its start was read.]`);
  if (text.length > WEB_FETCH_MAX_CHARS) {
    notes.push(`[Text truncated: showing the first ${WEB_FETCH_MAX_CHARS} of ${text.length} characters.]`);
    text = text.slice(0, WEB_FETCH_MAX_CHARS);
  }
  const head = [
    `URL: ${url.href}${url.href !== asked ? ` (redirected from ${asked})` : ""}`,
    ...(title ? [`Title: ${title}`] : []),
    ...(res.ok ? [] : [`HTTP status: ${res.status}`]),
  ];
  return textResult([head.join("\n"), text === "" ? "(the page has no text)" : text, ...notes].join("\n\n"), !res.ok);
}

/** The page's declared charset, or UTF-8 when it names none or one the runtime does not know. */
function decoderFor(contentType: string | null): TextDecoder {
  const label = /charset\s*=\s*"?([\w-]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(label as ConstructorParameters<typeof TextDecoder>[0]);
  } catch {
    return new TextDecoder();
  }
}

async function readCapped(res: HttpResponse): Promise<{ bytes: Uint8Array; cut: boolean }> {
  if (!res.body) return { bytes: new Uint8Array(0), cut: false };
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(parts), cut: false };
    parts.push(value);
    size += value.length;
    if (size >= WEB_FETCH_MAX_BYTES) {
      await reader.cancel();
      return { bytes: Buffer.concat(parts).subarray(0, WEB_FETCH_MAX_BYTES), cut: true };
    }
  }
}
