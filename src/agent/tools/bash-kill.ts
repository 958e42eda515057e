// The `bash_kill` tool: stops a background command and everything it started (its process group).
import { defineTool } from "./define.ts";
import { jobIdParam, jobStatus, killJob } from "./background-jobs.ts";
import { stringArg, textResult } from "./common.ts";

const DESCRIPTION = `Stop a background command (started by bash with background: true) and all its child processes: SIGTERM, then SIGKILL after 2 s.
Argument: id (bg1, bg2 …). Output it wrote before it stopped can still be read with bash_output.`;

export const bashKillTool = defineTool({
  name: "bash_kill",
  description: DESCRIPTION,
  params: { id: jobIdParam },
  preview(args) {
    return `bash_kill ${stringArg(args, "id") ?? "?"}`;
  },
  async execute({ id }) {
    const r = await killJob(id);
    if (!r.ok) return textResult(r.error, true);
    const status = jobStatus(r.info);
    return textResult(r.wasRunning ? `Stopped ${r.info.id}: ${status}.` : `${r.info.id} had already ended: ${status}.`);
  },
});
