// The `write` tool: create or replace a whole file, atomically.
import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { JsonObject } from "../../ext/protocol.ts";
import type { Tool, ToolContext, ToolOutput } from "../tool.ts";
import { atomicWrite, countLines, errorText, refuseNonRegular, resolvePath, stringArg, textResult } from "./common.ts";

const DESCRIPTION = `Write a file, creating it (and any missing parent directories) or replacing it entirely.
The write is atomic: the file ends up with either the old or the new content, never a mix. An existing file keeps its permissions, owner and hard links; only regular files are written (devices, pipes and sockets are refused).
Use this for new files or complete rewrites; prefer the edit tool for changing part of an existing file.
Arguments: path (relative to the working directory, or absolute) and content (the full new text).`;

export const writeTool: Tool = {
  name: "write",
  description: DESCRIPTION,
  schema: {
    type: "object",
    properties: {
      path: { type: "string", description: "Path of the file to write (relative to the working directory, or absolute)." },
      content: { type: "string", description: "The complete content of the file." },
    },
    required: ["path", "content"],
  },
  preview(args: JsonObject): string {
    const path = stringArg(args, "path") ?? "?";
    const content = stringArg(args, "content");
    return content === undefined ? `write ${path}` : `write ${path} (${Buffer.byteLength(content)} bytes)`;
  },
  async execute(args: JsonObject, ctx: ToolContext): Promise<ToolOutput> {
    const path = stringArg(args, "path");
    const content = stringArg(args, "content");
    if (path === undefined || path === "") return textResult(`write needs a "path" string argument.`, true);
    if (content === undefined) return textResult(`write needs a "content" string argument (use "" for an empty file).`, true);
    const abs = resolvePath(ctx.cwd, path);
    let existed = false;
    try {
      const st = statSync(abs);
      if (st.isDirectory()) return textResult(`Cannot write ${abs}: it is a directory.`, true);
      const refusal = refuseNonRegular(abs, "write");
      if (refusal) return textResult(refusal, true);
      existed = true;
    } catch {
      // Does not exist yet: created below.
    }
    try {
      mkdirSync(dirname(abs), { recursive: true });
      atomicWrite(abs, content);
    } catch (err) {
      return textResult(`Could not write ${abs} (${errorText(err)}).`, true);
    }
    const bytes = Buffer.byteLength(content);
    const lines = countLines(content);
    return textResult(`${existed ? "Overwrote" : "Created"} ${abs} (${bytes} bytes, ${lines} ${lines === 1 ? "line" : "lines"}).`);
  },
};
