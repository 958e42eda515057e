import type { Result } from "../result.ts";
// One HTTP GET into memory, given up when no byte arrives for the stall timeout (a hung server must
// not hang `zot update`), and checked against the length the server announced. Errors are clauses
// the caller finishes with what was (not) changed.
export type Downloaded = Result<{ bytes: Uint8Array }>;

export async function download(url: string, stallTimeoutMs: number): Promise<Downloaded> {
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stalled = false;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      abort.abort();
    }, stallTimeoutMs);
  };
  const seconds = Math.round(stallTimeoutMs / 1000);
  const stallError = `no progress for ${seconds} second${seconds === 1 ? "" : "s"} while downloading ${url} (check the connection, or raise ZOT_INSTALL_TIMEOUT)`;
  arm();
  try {
    let res: Response;
    try {
      res = await fetch(url, { signal: abort.signal, redirect: "follow" });
    } catch (e) {
      return { ok: false, error: stalled ? stallError : `could not reach ${url} (${(e as Error).message}; check the connection and ZOT_INSTALL_BASE)` };
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      return { ok: false, error: `the server answered ${url} with HTTP ${res.status} (check ZOT_INSTALL_BASE)` };
    }
    const parts: Uint8Array[] = [];
    let received = 0;
    try {
      const reader = res.body!.getReader();
      for (;;) {
        arm();
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        received += value.length;
      }
    } catch {
      return { ok: false, error: stalled ? stallError : `the download of ${url} was cut short after ${received} bytes` };
    }
    const announced = Number(res.headers.get("content-length") ?? NaN);
    if (Number.isFinite(announced) && received < announced) return { ok: false, error: `the download of ${url} was cut short (${received} of ${announced} bytes)` };
    return { ok: true, bytes: Buffer.concat(parts) };
  } finally {
    clearTimeout(timer);
  }
}
