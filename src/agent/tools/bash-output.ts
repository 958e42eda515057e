// The `bash_output` tool: what a background command (bash with "background": true) wrote since the
// last read, and whether it still runs.
import { defineTool } from "./define.ts";
import { jobIdParam, jobStatus, readJob } from "./background-jobs.ts";
import { stringArg, textResult } from "./common.ts";

const DESCRIPTION = `Read the output of a background command (started by bash with background: true) written since the last bash_output call for it, and its state: running, or how it ended (exit code or signal).
Argument: id (bg1, bg2 …, as bash returned it). Only the last part of a very long output is kept; the result says how much was dropped.`;

export const bashOutputTool = defineTool({
  name: "bash_output",
  description: DESCRIPTION,
  params: { id: jobIdParam },
  preview(args) {
    return `bash_output ${stringArg(args, "id") ?? "?"}`;
  },
  async execute({ id }) {
    const r = readJob(id);
    if (!r.ok) return textResult(r.error, true);
    const parts = [`[${r.info.id} ${jobStatus(r.info)}: ${r.info.command}]`];
    if (r.dropped > 0) parts.push(`[${r.dropped} characters of output were dropped before they were read; only the last part is kept.]`);
    parts.push(r.text === "" ? "(no new output)" : r.text.endsWith("\n") ? r.text.slice(0, -1) : r.text);
    return textResult(parts.join("\n"));
  },
});
