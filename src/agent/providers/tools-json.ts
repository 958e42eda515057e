// A request's `"tools":[…]` field as JSON text, for every wire. The tools' schemas are most of a
// request's fields (~8 KB for the built-ins) and are the same specs step after step, so each wire
// keeps the text of the last tools it sent and sends it again while they are the same. A schema
// object is never changed once declared: the same specs (by identity, or the same name, description
// and schema object) give the same text. Each wire has its own memo, because each shapes its tools
// differently; what else a wire's shape depends on (which tools are hidden, Kimi's wire names) is
// its `key`.
import type { JsonObject } from "../messages.ts";
import type { ToolSpec } from "../provider.ts";
import { EMPTY, jsonBytes, type JsonBytes } from "./wire-cache.ts";

const sameSpec = (a: ToolSpec, b: ToolSpec): boolean => a === b || (a.name === b.name && a.description === b.description && a.schema === b.schema);

export class ToolsJson<Context> {
  private last: { tools: readonly ToolSpec[]; key: string; json: JsonBytes } | null = null;

  /**
   * `shape` makes the field's list from the tools (with what the wire needs beside them); `key`
   * names everything but the specs that the list depends on.
   */
  constructor(
    private readonly shape: (tools: readonly ToolSpec[], context: Context) => JsonObject[],
    private readonly key: (tools: readonly ToolSpec[], context: Context) => string = () => "",
  ) {}

  /** `"tools":[…]` as UTF-8 (kept as bytes: encoding its ~8 KB again was 2 % of a tool loop's CPU), or empty when there are no tools (the field is left out). */
  field(tools: readonly ToolSpec[], context: Context): JsonBytes {
    if (tools.length === 0) return EMPTY;
    const key = this.key(tools, context);
    const last = this.last;
    if (last && last.key === key && last.tools.length === tools.length && last.tools.every((t, i) => sameSpec(t, tools[i]!))) return last.json;
    const json = jsonBytes(`"tools":${JSON.stringify(this.shape(tools, context))}`);
    // A copy: the caller's list may change after the call.
    this.last = { tools: [...tools], key, json };
    return json;
  }
}
