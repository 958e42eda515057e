// A headless Chromium driven over the DevTools protocol (a WebSocket, which Bun has), for checking
// the HTML export in a real browser: load a page, read it, click it, and see every request it makes.
import { rmSync } from "node:fs";
import { tempDir } from "../../helpers/temp.ts";

type Message = {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
};

export class Browser {
  private nextId = 1;
  private pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  private waiters: { method: string; resolve: (p: Record<string, unknown>) => void }[] = [];
  /** Every URL the page asked for, in order. */
  readonly requests: string[] = [];
  private session = "";

  private constructor(
    private readonly proc: ReturnType<typeof Bun.spawn>,
    private readonly ws: WebSocket,
    private readonly profile: string,
  ) {
    ws.onmessage = (ev) => this.onMessage(JSON.parse(String(ev.data)) as Message);
  }

  static async launch(): Promise<Browser> {
    const profile = tempDir("zot-chromium-");
    const proc = Bun.spawn(
      [
        "chromium",
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--remote-debugging-port=0",
        `--user-data-dir=${profile}`,
        "about:blank",
      ],
      { stdin: "ignore", stdout: "ignore", stderr: "pipe" },
    );
    // Chromium says where its DevTools endpoint listens on stderr.
    const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
    let text = "";
    let url: string | null = null;
    while (url === null) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`chromium exited before it listened: ${text}`);
      text += new TextDecoder().decode(value);
      url = /DevTools listening on (ws:\/\/\S+)/.exec(text)?.[1] ?? null;
    }
    void (async () => {
      while (!(await reader.read()).done);
    })();
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error(`could not connect to ${url}`));
    });
    const b = new Browser(proc, ws, profile);
    const { targetId } = await b.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await b.send("Target.attachToTarget", { targetId, flatten: true });
    b.session = String(sessionId);
    await b.send("Network.enable", {});
    await b.send("Page.enable", {});
    return b;
  }

  private onMessage(m: Message): void {
    if (m.id !== undefined) {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) p?.reject(new Error(m.error.message));
      else p?.resolve(m.result ?? {});
      return;
    }
    const request = m.params?.request as { url?: string } | undefined;
    if (m.method === "Network.requestWillBeSent") this.requests.push(String(request?.url));
    for (const w of this.waiters.filter((w) => w.method === m.method)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(m.params ?? {});
    }
  }

  /** A command to the page (after launch) or the browser (during it). */
  send(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const frame: Message & { params: Record<string, unknown> } = { id, method, params, ...(this.session ? { sessionId: this.session } : {}) };
    this.ws.send(JSON.stringify(frame));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  private next(method: string): Promise<Record<string, unknown>> {
    return new Promise((resolve) => this.waiters.push({ method, resolve }));
  }

  async open(url: string): Promise<void> {
    const loaded = this.next("Page.loadEventFired");
    await this.send("Page.navigate", { url });
    await loaded;
  }

  /** The value of `expression` evaluated in the page. */
  async eval<T>(expression: string): Promise<T> {
    const r = await this.send("Runtime.evaluate", { expression, returnByValue: true });
    if (r.exceptionDetails) throw new Error(`${expression} threw: ${JSON.stringify(r.exceptionDetails)}`);
    return (r.result as { value: T }).value;
  }

  /** A real mouse click at the middle of the first element `selector` matches. */
  async click(selector: string): Promise<void> {
    const box = await this.eval<{ x: number; y: number } | null>(
      `(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return null; e.scrollIntoView(); const r = e.getBoundingClientRect(); return { x: r.left + Math.min(20, r.width / 2), y: r.top + r.height / 2 }; })()`,
    );
    if (!box) throw new Error(`nothing matches ${selector}`);
    for (const type of ["mousePressed", "mouseReleased"])
      await this.send("Input.dispatchMouseEvent", { type, x: box.x, y: box.y, button: "left", clickCount: 1 });
  }

  async screenshot(): Promise<Buffer> {
    const r = await this.send("Page.captureScreenshot", { format: "png" });
    return Buffer.from(String(r.data), "base64");
  }

  async close(): Promise<void> {
    // Browser.close (to the browser, not the page) ends Chromium with all its helper processes.
    this.ws.send(JSON.stringify({ id: this.nextId++, method: "Browser.close", params: {} }));
    const exited = await Promise.race([this.proc.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
    if (!exited) this.proc.kill("SIGKILL");
    await this.proc.exited;
    this.ws.close();
    rmSync(this.profile, { recursive: true, force: true });
  }
}
