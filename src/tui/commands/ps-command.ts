// /ps: the background commands of this zot (bash with "background": true) with their state as it is
// now; enter on a running one stops it (its whole process group) and the list opens again.
import { jobStatus, type JobInfo } from "../../runtime/api.ts";
import type { CommandContext } from "./command-context.ts";
import { Picker } from "../components/pickers.ts";

export function psCommand(ctx: CommandContext, initial = 0): void {
  const jobs = ctx.runtime.backgroundJobs();
  if (jobs.length === 0) {
    ctx.status([{ text: "No background commands: the model starts them with bash and background: true.", level: "info" }], 4000);
    return;
  }
  // Rows look the job up at every frame, so a job that ends while the list is open shows it at once.
  const current = (id: string): JobInfo | undefined => ctx.runtime.backgroundJobs().find((j) => j.id === id);
  const ids = jobs.map((j) => j.id);
  ctx.openModal(
    new Picker<string>(ctx, {
      title: "Background commands · enter stops the selected one",
      items: ids,
      initial: Math.min(initial, ids.length - 1),
      key: (id) => `${id} ${current(id)?.command ?? ""}`,
      row: (id) => {
        const job = current(id);
        if (!job) return { label: id };
        return { label: `${job.state === "running" ? "● " : "  "}${id}  ${jobStatus(job)}`, detail: `pid ${job.pid} · ${job.command}` };
      },
      onPick: (id) => {
        const job = current(id);
        if (job?.state !== "running") {
          ctx.status([{ text: `${id} has already ended${job ? `: ${jobStatus(job)}` : ""}.`, level: "info" }], 4000);
          psCommand(ctx, ids.indexOf(id));
          return;
        }
        ctx.status([{ text: `Stopping ${id} …`, level: "info" }], 3000);
        void ctx.runtime.killBackgroundJob(id).then((r) => {
          if (r.ok) ctx.status([{ text: `Stopped ${id}: ${jobStatus(r.job)}.`, level: "success" }], 4000);
          else ctx.status([{ text: r.error, level: "error" }], 6000);
          ctx.redraw();
        });
        psCommand(ctx, ids.indexOf(id));
      },
    }),
  );
}
