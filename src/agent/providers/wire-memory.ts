// The OpenAI-compatible base URLs found to have no Responses API (a 404 on <base>/responses), in
// $ZOT_HOME/wire-fallbacks.json, so later runs send their Responses-wire models straight over Chat
// Completions. Only a hint: deleting the file, or --wire responses, tries the Responses API again.
import { readFileSync } from "node:fs";
import { atomicWrite } from "../../platform/atomic-write.ts";
import { ensurePrivateDir, wireFallbacksPath } from "../../platform/home.ts";
import { isObject } from "../../json.ts";

type Store = Record<string, { wire: "chat"; since: string }>;

export class WireMemory {
  private readonly store: Store;
  readonly path: string;

  constructor(private readonly home: string) {
    this.path = wireFallbacksPath(home);
    this.store = read(this.path);
  }

  /** True when `base` is known to serve only Chat Completions. */
  chatOnly(base: string): boolean {
    return this.store[base]?.wire === "chat";
  }

  /** Remembers `base` at once; a failure to write only costs one 404 on the next run. */
  rememberChat(base: string): void {
    if (this.chatOnly(base)) return;
    this.store[base] = { wire: "chat", since: new Date().toISOString() };
    try {
      ensurePrivateDir(this.home);
      atomicWrite(this.path, `${JSON.stringify(this.store, null, 2)}\n`, 0o600);
    } catch {
      // Not worth an error: the fallback happens again next time.
    }
  }
}

function read(path: string): Store {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return {};
  }
  const out: Store = {};
  if (!isObject(raw)) return out;
  for (const [base, v] of Object.entries(raw))
    if (isObject(v) && v.wire === "chat" && typeof v.since === "string") out[base] = { wire: "chat", since: v.since };
  return out;
}
