// /trust: workspace trust without leaving the TUI. Shows the project code of this folder that
// trust does not let run (an untrusted folder's, or extensions and MCP servers new or changed
// since it was trusted), then trusts the folder as `zot ext trust` does and reloads, so the code
// joins the session. The runtime reads and writes trust.json; this only shows and asks.
import type { CommandContext, StatusLine } from "./command-context.ts";
import { TRUST_WARNING, trustListing } from "../components/trust-listing.ts";
import { TrustDialog } from "../components/trust-dialog.ts";

const STATUS_MS = 6000;

/** `reload` is /reload-ext of everything, its status led by `lead`. */
export async function trustCommand(ctx: CommandContext, reload: (lead: StatusLine[]) => Promise<void>): Promise<void> {
  const review = await ctx.runtime.trustReview();
  if (review.pending.length === 0 && review.pendingServers.length === 0) {
    const text = !review.hasCode
      ? `${ctx.runtime.cwd} has no project extensions or MCP servers: there is nothing to trust.`
      : `${ctx.runtime.cwd} is trusted${review.trustedBy && review.trustedBy !== ctx.runtime.cwd ? ` (through ${review.trustedBy})` : ""} and none of its project code is pending.`;
    ctx.status([{ text, level: "info" }], STATUS_MS);
    return;
  }
  const listing = [...trustListing(ctx.runtime.cwd, review.pending, review.pendingServers), "", TRUST_WARNING];
  ctx.openModal(
    new TrustDialog(ctx, listing, (answer) => {
      if (answer === "cancel") {
        ctx.status([{ text: "Nothing was trusted; the project code stays off.", level: "info" }], STATUS_MS);
        return;
      }
      void trustAndReload(ctx, reload);
    }),
  );
}

async function trustAndReload(ctx: CommandContext, reload: (lead: StatusLine[]) => Promise<void>): Promise<void> {
  const r = await ctx.runtime.trustProject();
  if (!r.ok) {
    ctx.status([{ text: `${r.error} Nothing was trusted.`, level: "error" }], STATUS_MS * 2);
    return;
  }
  await reload([{ text: `Trusted ${r.path} and its subfolders.`, level: "success" }]);
}
