// defineTool: a built-in tool declared as its parameters, each with its JSON Schema and its decoder.
// The schema the model sees is built from the parameters, and the arguments are decoded against them
// once, before `approval` and `execute` run: those receive typed values and never re-check them.
import type { Json, JsonObject } from "../../json.ts";
import type { Decoded } from "../../protocol.ts";
import type { ApprovalDetail } from "../events.ts";
import type { Tool, ToolContext, ToolOutput } from "../tool.ts";
import { textResult } from "./common.ts";

/**
 * One parameter. `decode` gets the model's value (undefined when absent) and returns the typed value
 * or the whole error sentence, which names the tool and the argument.
 */
export type Param<T> = { schema: JsonObject; required: boolean; decode(v: Json | undefined, key: string, tool: string): Decoded<T> };

type ArgsOf<P extends Record<string, Param<unknown>>> = { [K in keyof P]: P[K] extends Param<infer T> ? T : never };

const ok = <T>(value: T): Decoded<T> => ({ ok: true, value });
const bad = (error: string): Decoded<never> => ({ ok: false, error });

/** A required string; `nonEmpty` refuses "" and blanks, `hint` follows the type in the error. */
export function stringParam(description: string, opts: { nonEmpty?: boolean; hint?: string } = {}): Param<string> {
  return {
    schema: { type: "string", description },
    required: true,
    decode(v, key, tool) {
      if (typeof v === "string" && !(opts.nonEmpty && v.trim() === "")) return ok(v);
      const what = `${opts.nonEmpty ? "non-empty " : ""}"${key}"`;
      return bad(`${tool} needs ${/^[a-z]/.test(what) || !/^"[aeiou]/.test(what) ? "a" : "an"} ${what} string argument${opts.hint ? ` ${opts.hint}` : ""}.`);
    },
  };
}

/** An optional positive number; models sometimes send numbers as strings, so "10" is accepted. */
export function positiveNumberParam(description: string, unit: string): Param<number | undefined> {
  return {
    schema: { type: "number", description },
    required: false,
    decode(v, key) {
      const n = typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v;
      if (n === undefined || n === null) return ok(undefined);
      if (typeof n === "number" && n > 0) return ok(n);
      return bad(`"${key}" must be a positive number of ${unit}, got ${JSON.stringify(n)}.`);
    },
  };
}

/** An optional whole number ≥ 1; "10" is accepted as 10. */
export function positiveIntegerParam(description: string): Param<number | undefined> {
  return {
    schema: { type: "integer", minimum: 1, description },
    required: false,
    decode(v, key) {
      if (v === undefined || v === null) return ok(undefined);
      const n = typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
      if (typeof n === "number" && Number.isInteger(n) && n >= 1) return ok(n);
      return bad(`"${key}" must be a positive whole number, got ${JSON.stringify(v)}.`);
    },
  };
}

/** An optional flag, false when absent; models sometimes send booleans as strings ("true"). */
export function flagParam(description: string): Param<boolean> {
  return { schema: { type: "boolean", description }, required: false, decode: (v) => ok(v === true || v === "true") };
}

/** A required parameter with its own schema and decoder (arrays of objects and the like). */
export function customParam<T>(schema: JsonObject, decode: (v: Json | undefined, key: string, tool: string) => Decoded<T>): Param<T> {
  return { schema, required: true, decode };
}

export type ToolDefinition<P extends Record<string, Param<unknown>>> = {
  name: string;
  /** Model-facing description. */
  description: string;
  params: P;
  /** The one-line preview; it gets the raw arguments, since a UI shows calls that will fail too. */
  preview(args: JsonObject): string;
  approval?(args: ArgsOf<P>, cwd: string): ApprovalDetail;
  execute(args: ArgsOf<P>, ctx: ToolContext): Promise<ToolOutput>;
};

/** The arguments decoded against `params`, or the first argument's error sentence. */
export function decodeArgs<P extends Record<string, Param<unknown>>>(tool: string, params: P, args: JsonObject): Decoded<ArgsOf<P>> {
  const out: Record<string, unknown> = {};
  for (const [key, p] of Object.entries(params)) {
    const d = p.decode(args[key], key, tool);
    if (!d.ok) return d;
    out[key] = d.value;
  }
  return ok(out as ArgsOf<P>);
}

export function defineTool<P extends Record<string, Param<unknown>>>(def: ToolDefinition<P>): Tool {
  const properties = Object.fromEntries(Object.entries(def.params).map(([k, p]) => [k, p.schema]));
  const required = Object.entries(def.params).flatMap(([k, p]) => (p.required ? [k] : []));
  const tool: Tool = {
    name: def.name,
    description: def.description,
    schema: { type: "object", properties, required },
    preview: (args) => def.preview(args),
    async execute(args, ctx) {
      const decoded = decodeArgs(def.name, def.params, args);
      return decoded.ok ? def.execute(decoded.value, ctx) : textResult(decoded.error, true);
    },
  };
  const approval = def.approval;
  if (approval) {
    tool.approval = (args, cwd) => {
      const decoded = decodeArgs(def.name, def.params, args);
      if (!decoded.ok) return { kind: "json", json: JSON.stringify(args, null, 2), note: `This call will fail: ${decoded.error}` };
      return approval(decoded.value, cwd);
    };
  }
  return tool;
}
