// The RPC side of the everyday commands: `get_cost`, `get_context`, `export`, `rename`, `add_dir`
// and `doctor`, answering with what /cost, /context, /export, /rename, /add-dir and /doctor show.
import { isExportFormat, EXPORT_FORMATS, type AgentRuntime } from "../runtime/api.ts";
import type { Json, JsonObject } from "../json.ts";

type Reply = { data?: Json } | { error: string };

const usageJson = (u: { input: number; output: number; cacheRead: number; cacheWrite: number; cost: number }): JsonObject => ({
  input: u.input,
  output: u.output,
  cache_read: u.cacheRead,
  cache_write: u.cacheWrite,
  cost_usd: u.cost,
});

export async function dailyCommand(
  rt: AgentRuntime,
  type: "get_cost" | "get_context" | "export" | "rename" | "add_dir" | "doctor",
  b: JsonObject,
): Promise<Reply> {
  switch (type) {
    case "get_cost":
      return {
        data: {
          total: usageJson(rt.usage()),
          models: rt.modelUsage().map((m) => ({ provider: m.provider, model: m.model, calls: m.calls, usage: usageJson(m.usage) })),
        },
      };
    case "get_context": {
      const r = rt.contextReport();
      return {
        data: { parts: r.parts.map((p) => ({ kind: p.kind, label: p.label, tokens: p.tokens })), total: r.total, measured: r.measured, window: r.window },
      };
    }
    case "export": {
      const format = b.format ?? "html";
      if (typeof format !== "string" || !isExportFormat(format))
        return { error: `export: "format" must be one of ${EXPORT_FORMATS.map((f) => `"${f}"`).join(", ")}` };
      if (b.path !== undefined && typeof b.path !== "string") return { error: `export: "path" must be a string` };
      const r = rt.exportTranscript(format, typeof b.path === "string" ? b.path : undefined);
      return r.ok ? { data: { path: r.path, format } } : { error: r.error };
    }
    case "rename": {
      if (typeof b.title !== "string") return { error: `rename needs a string "title"` };
      const r = rt.rename(b.title);
      return r.ok ? { data: { title: rt.title } } : { error: r.error };
    }
    case "add_dir": {
      if (typeof b.path !== "string") return { error: `add_dir needs a string "path"` };
      const r = rt.addDir(b.path);
      return r.ok ? { data: { path: r.path } } : { error: r.error };
    }
    case "doctor": {
      const r = await rt.doctor(new AbortController().signal);
      return { data: { ...r.report, text: r.text } };
    }
  }
}
