// An MCP elicitation (form mode) as a small panel: one line per field of the server's flat schema,
// typed into with the panel keys zot already routes. Enter submits, Esc declines.
import { isObject } from "../json.ts";
import type { Json, JsonObject, PanelContent, PanelKeyName } from "../protocol.ts";
import type { ElicitAnswer } from "./client.ts";

type Field = { key: string; title: string; type: "string" | "number" | "integer" | "boolean" | "enum"; options: string[]; required: boolean; value: string };

export class ElicitForm {
  private readonly fields: Field[];
  private cursor = 0;
  private problem = "";

  constructor(
    readonly id: string,
    private readonly server: string,
    private readonly message: string,
    schema: JsonObject,
  ) {
    const props = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
    this.fields = Object.entries(props).map(([key, p]) => fieldOf(key, isObject(p) ? p : {}, required.includes(key)));
  }

  panel(): PanelContent {
    const lines = [this.message, ""];
    this.fields.forEach((f, i) => {
      const mark = i === this.cursor ? ">" : " ";
      const hint = f.type === "enum" ? ` (←/→: ${f.options.join(" | ")})` : f.type === "boolean" ? " (space toggles)" : "";
      lines.push(`${mark} ${f.title}${f.required ? " *" : ""}: ${f.value}${i === this.cursor ? "_" : ""}${hint}`);
    });
    if (this.fields.length === 0) lines.push("(no fields: Enter accepts, Esc declines)");
    if (this.problem) lines.push("", this.problem);
    return { id: this.id, title: `${this.server} asks`, lines, footer: "↑/↓ move · Enter submit · Esc decline" };
  }

  /** A key; returns the answer once the form is done, else null (re-render). */
  key(key: PanelKeyName, text?: string): ElicitAnswer | null {
    const f = this.fields[this.cursor];
    this.problem = "";
    switch (key) {
      case "esc":
        return { action: "decline" };
      case "enter":
        return this.submit();
      case "up":
        this.cursor = Math.max(0, this.cursor - 1);
        return null;
      case "down":
      case "tab":
        this.cursor = Math.min(this.fields.length - 1, this.cursor + 1);
        return null;
      case "left":
      case "right":
        if (f?.type === "enum" && f.options.length) {
          const i = f.options.indexOf(f.value);
          f.value = f.options[(i + (key === "right" ? 1 : f.options.length - 1)) % f.options.length] ?? f.value;
        }
        return null;
      case "backspace":
        if (f && f.type !== "enum" && f.type !== "boolean") f.value = f.value.slice(0, -1);
        return null;
      case "rune":
        if (!f || text === undefined) return null;
        if (f.type === "boolean")
          f.value = text === " " ? (f.value === "true" ? "false" : "true") : /^[yt]/i.test(text) ? "true" : /^[nf]/i.test(text) ? "false" : f.value;
        else if (f.type !== "enum") f.value += text;
        return null;
      default:
        return null;
    }
  }

  private submit(): ElicitAnswer | null {
    const content: JsonObject = {};
    for (const f of this.fields) {
      if (f.value === "") {
        if (f.required) return this.refuse(`${f.title} is required.`);
        continue;
      }
      const v = fieldValue(f);
      if (v === undefined) return this.refuse(`${f.title} must be ${f.type === "integer" ? "a whole number" : "a number"}.`);
      content[f.key] = v;
    }
    return { action: "accept", content };
  }

  private refuse(problem: string): null {
    this.problem = problem;
    return null;
  }
}

function fieldOf(key: string, p: JsonObject, required: boolean): Field {
  const title = typeof p.title === "string" ? p.title : key;
  const options = Array.isArray(p.enum) ? p.enum.map(String) : Array.isArray(p.oneOf) ? p.oneOf.filter(isObject).map((o) => String(o.const ?? "")) : [];
  const type = options.length ? "enum" : p.type === "number" || p.type === "integer" || p.type === "boolean" ? p.type : "string";
  const d = p.default;
  const value = d === undefined || d === null ? (type === "enum" ? (options[0] ?? "") : type === "boolean" ? "false" : "") : String(d);
  return { key, title, type, options, required, value };
}

function fieldValue(f: Field): Json | undefined {
  if (f.type === "boolean") return f.value === "true";
  if (f.type === "number" || f.type === "integer") {
    const n = Number(f.value);
    if (!Number.isFinite(n) || (f.type === "integer" && !Number.isInteger(n))) return undefined;
    return n;
  }
  return f.value;
}
