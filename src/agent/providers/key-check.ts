// The optional check behind /login: one cheap authenticated request (list the models) to the
// provider, so a mistyped key is caught before it is saved instead of on the next prompt.
import { ANTHROPIC_VERSION } from "./anthropic.ts";
import { ENDPOINTS } from "./endpoints.ts";
import { send } from "../../platform/http.ts";

export const PROBE_TIMEOUT_MS = 8000;

/** The public endpoints the providers default to, as the clients define them. */
const DEFAULT_BASE: Record<string, string | undefined> = {
  anthropic: ENDPOINTS.anthropic.anthropic,
  openai: ENDPOINTS.openai.openai,
  kimi: ENDPOINTS.kimi.openai,
};

export type ProbeRequest = { url: string; headers: Record<string, string> };

export type ProbeResult =
  | { kind: "ok"; url: string; status: number }
  /** The provider refused the key (401/403). */
  | { kind: "rejected"; url: string; status: number }
  /** No verdict on the key: unreachable, timed out, or an unexpected status. */
  | { kind: "unknown"; url: string; why: string };

/** The request that checks `key`, or null for a provider zot cannot check. */
export function probeRequest(provider: string, key: string, baseUrl?: string): ProbeRequest | null {
  const base = (baseUrl ?? DEFAULT_BASE[provider])?.replace(/\/+$/, "");
  if (!base) return null;
  if (provider === "anthropic") {
    return { url: `${base.replace(/\/v1$/, "")}/v1/models`, headers: { "x-api-key": key, "anthropic-version": ANTHROPIC_VERSION } };
  }
  return { url: `${base}/models`, headers: { authorization: `Bearer ${key}` } };
}

/** Sends the check; `cancel` (the user pressed esc) ends it early with no verdict. */
export async function probeKey(req: ProbeRequest, timeoutMs = PROBE_TIMEOUT_MS, cancel?: AbortSignal): Promise<ProbeResult> {
  const sent = await send(req.url, { headers: req.headers, headerTimeoutMs: timeoutMs, ...(cancel ? { signal: cancel } : {}) });
  if (!sent.ok) {
    if (sent.kind === "aborted") return { kind: "unknown", url: req.url, why: "cancelled" };
    if (sent.kind === "timeout") return { kind: "unknown", url: req.url, why: `no answer within ${timeoutMs / 1000} s` };
    return { kind: "unknown", url: req.url, why: sent.cause ?? sent.error };
  }
  const res = sent.response;
  // The body is not needed: the status is the verdict.
  await res.discard();
  if (res.ok) return { kind: "ok", url: req.url, status: res.status };
  if (res.status === 401 || res.status === 403) return { kind: "rejected", url: req.url, status: res.status };
  return { kind: "unknown", url: req.url, why: `HTTP ${res.status}` };
}
