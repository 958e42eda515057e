// The Go zot's transcript reader (internal/core/session.go of the Go snapshot v0.1.62), ported line
// for line so tests can check that what zot writes is what the Go zot understands: the first line
// must be a `meta` row (export, import, fork and tree refuse anything else), content blocks are
// recognised by their fields alone, a tool result counts only in the `tool` message right after its
// call, and the session total is the last usage row's `cumulative`.
type Obj = Record<string, unknown>;

export type GoBlock =
  | { kind: "text"; text: string }
  | { kind: "image"; mime_type: string }
  | { kind: "tool_call"; id: string; name: string; arguments: unknown }
  | { kind: "tool_result"; call_id: string; is_error: boolean; content: GoBlock[] }
  | { kind: "reasoning"; id: string };

export type GoMessage = { role: string; content: GoBlock[]; time: string };
export type GoMeta = {
  id: string;
  cwd: string;
  model: string;
  provider: string;
  started: string;
  version: string;
  title?: string;
  parent?: string;
  fork_point?: number;
};
export type GoSession = { firstLineIsMeta: boolean; meta: GoMeta | null; messages: GoMessage[]; stubs: number; cumulative: Obj | null };

const str = (v: unknown): string => (typeof v === "string" ? v : "");

function hydrateBlock(raw: unknown): GoBlock | null {
  if (typeof raw !== "object" || raw === null) return null;
  const b = raw as Obj;
  if (str(b.reasoning_id) !== "" || str(b.encrypted_content) !== "") return { kind: "reasoning", id: str(b.reasoning_id) };
  if (str(b.name) !== "" && str(b.id) !== "") return { kind: "tool_call", id: str(b.id), name: str(b.name), arguments: b.arguments };
  if (str(b.call_id) !== "") {
    const content: GoBlock[] = [];
    for (const c of Array.isArray(b.content) ? b.content : []) {
      const inner = (c ?? {}) as Obj;
      content.push(str(inner.mime_type) !== "" ? { kind: "image", mime_type: str(inner.mime_type) } : { kind: "text", text: str(inner.text) });
    }
    return { kind: "tool_result", call_id: str(b.call_id), is_error: b.is_error === true, content };
  }
  if (str(b.mime_type) !== "") return { kind: "image", mime_type: str(b.mime_type) };
  return { kind: "text", text: str(b.text) };
}

/** Go's OpenSession + SessionUsage + readSessionMeta over one file's text. */
export function readWithGoRules(text: string): GoSession {
  const out: GoSession = { firstLineIsMeta: false, meta: null, messages: [], stubs: 0, cumulative: null };
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  lines.forEach((line, i) => {
    let row: Obj;
    try {
      row = JSON.parse(line) as Obj;
    } catch {
      return;
    }
    if (i === 0) out.firstLineIsMeta = row.type === "meta" && typeof row.meta === "object" && row.meta !== null;
    switch (row.type) {
      case "meta":
        out.meta = row.meta as GoMeta;
        break;
      case "message": {
        const m = row.message as Obj;
        const content = (Array.isArray(m.content) ? m.content : []).map(hydrateBlock).filter((b): b is GoBlock => b !== null);
        if (content.length > 0) out.messages.push({ role: str(m.role), content, time: str(m.time) });
        break;
      }
      case "usage":
        out.cumulative = (row.cumulative ?? {}) as Obj;
        break;
    }
  });
  out.messages = repair(out.messages, out);
  return out;
}

/** repairToolUseResultPairs: a call without a result in the very next `tool` message gets a stub. */
function repair(msgs: GoMessage[], s: GoSession): GoMessage[] {
  const res: GoMessage[] = [];
  msgs.forEach((m, i) => {
    res.push(m);
    if (m.role !== "assistant") return;
    const ids = m.content.flatMap((c) => (c.kind === "tool_call" ? [c.id] : []));
    if (ids.length === 0) return;
    const next = msgs[i + 1];
    const have = new Set(next?.role === "tool" ? next.content.flatMap((c) => (c.kind === "tool_result" ? [c.call_id] : [])) : []);
    const missing = ids.filter((id) => !have.has(id));
    if (missing.length === 0) return;
    s.stubs += missing.length;
    const stubs: GoBlock[] = missing.map((id) => ({
      kind: "tool_result",
      call_id: id,
      is_error: true,
      content: [{ kind: "text", text: "tool call was aborted; no result recorded." }],
    }));
    if (next?.role === "tool") next.content.push(...stubs);
    else res.push({ role: "tool", content: stubs, time: m.time });
  });
  return res;
}

/** Go's time.Time accepts RFC 3339 only. */
export function isRfc3339(t: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(t);
}
