// The `bash_kill` tool: stops a background command and everything it started (its process group).
import type { JsonObject } from "../../json.ts";
import type { Tool, ToolOutput } from "../tool.ts";
import { JOB_ID_SCHEMA, jobIdArg, jobStatus, killJob } from "./background-jobs.ts";
import { stringArg, textResult } from "./common.ts";

const DESCRIPTION = `Stop a background command (started by bash with background: true) and all its child processes: SIGTERM, then SIGKILL after 2 s.
Argument: id (bg1, bg2 …). Output it wrote before it stopped can still be read with bash_output.`;

export const bashKillTool: Tool = {
  name: "bash_kill",
  description: DESCRIPTION,
  schema: JOB_ID_SCHEMA,
  preview(args: JsonObject): string {
    return `bash_kill ${stringArg(args, "id") ?? "?"}`;
  },
  async execute(args: JsonObject): Promise<ToolOutput> {
    const arg = jobIdArg(args, "bash_kill");
    if ("error" in arg) return textResult(arg.error, true);
    const r = await killJob(arg.id);
    if (!r.ok) return textResult(r.error, true);
    const status = jobStatus(r.info);
    return textResult(r.wasRunning ? `Stopped ${r.info.id}: ${status}.` : `${r.info.id} had already ended: ${status}.`);
  },
};
