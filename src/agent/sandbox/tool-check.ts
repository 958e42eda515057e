// The built-in file tools' side of the sandbox: `read` obeys the hidden list and `write`/`edit` the
// write rules the kernel enforces on commands, checked in-process against the same policy.
import type { ToolContext, ToolOutput } from "../tool.ts";
import { readDenial, writeDenial } from "./policy.ts";

/** The refusal for `abs` (already resolved against the cwd), or null when the sandbox lets the tool go on. */
export function sandboxRefusal(access: "read" | "write", abs: string, ctx: ToolContext): ToolOutput | null {
  if (!ctx.sandbox) return null;
  const why = access === "read" ? readDenial(ctx.sandbox, abs) : writeDenial(ctx.sandbox, abs);
  return why === null ? null : { content: [{ type: "text", text: why }], isError: true, sandboxDenial: why };
}
