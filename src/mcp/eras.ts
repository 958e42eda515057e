// The protocol era each server spoke last time, in $ZOT_HOME/mcp-eras.json, keyed by server name and
// what it runs (a changed command or URL probes again). Only a hint: a remembered era that fails is
// probed afresh.
import { erasPath } from "../platform/home.ts";
import { readFileSync } from "node:fs";
import { atomicWrite } from "../platform/atomic-write.ts";
import { isObject } from "../json.ts";
import type { Negotiated } from "./client.ts";

type Store = Record<string, { target: string; era: Negotiated["era"]; version: string }>;

export class EraMemory {
  private store: Store;
  private dirty = false;
  private readonly path: string;

  constructor(home: string) {
    this.path = erasPath(home);
    this.store = read(this.path);
  }

  get(name: string, target: string): Negotiated | null {
    const e = this.store[name];
    return e && e.target === target ? { era: e.era, version: e.version } : null;
  }

  set(name: string, target: string, n: Negotiated): void {
    const e = this.store[name];
    if (e && e.target === target && e.era === n.era && e.version === n.version) return;
    this.store[name] = { target, era: n.era, version: n.version };
    this.dirty = true;
  }

  /** Written once after all servers started; a failure to write only costs a probe next time. */
  save(): void {
    if (!this.dirty) return;
    this.dirty = false;
    try {
      atomicWrite(this.path, JSON.stringify(this.store, null, 2) + "\n", 0o600);
    } catch {
      // Not worth an error: the next run probes again.
    }
  }
}

function read(path: string): Store {
  try {
    const raw: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (!isObject(raw)) return {};
    const out: Store = {};
    for (const [k, v] of Object.entries(raw)) {
      if (isObject(v) && typeof v.target === "string" && (v.era === "modern" || v.era === "legacy") && typeof v.version === "string")
        out[k] = { target: v.target, era: v.era, version: v.version };
    }
    return out;
  } catch {
    return {};
  }
}
