// `/session export|import|fork|tree` and the rewind picker (esc esc on an empty editor), as in the
// Go zot: share a session as a portable file, bring one in, branch before an earlier prompt, and
// move around the branches of this directory.
import { flattenTree, sessionSummary, type Prompt, type TreeNode } from "../../runtime/api.ts";
import type { CommandContext } from "./command-context.ts";
import { Picker, TextPrompt } from "../components/pickers.ts";

const USAGE = "Usage: /session export [path] · /session import <path> · /session fork · /session tree";

export function sessionCommand(ctx: CommandContext, args: string): void {
  const [sub = "", ...rest] = args.trim().split(/\s+/);
  const arg = args.trim().slice(sub.length).trim();
  if (ctx.busy && sub !== "export" && sub !== "tree") {
    ctx.status([{ text: "A turn is running; press esc to cancel it first.", level: "warn" }], 4000);
    return;
  }
  switch (sub) {
    case "export": {
      const r = ctx.runtime.exportSession(arg || undefined);
      if (r.ok) ctx.status([{ text: `Exported this session to ${r.path}`, level: "success" }], 8000);
      else ctx.status([{ text: `Export failed: ${r.error}`, level: "error" }], 8000);
      return;
    }
    case "import": {
      if (rest.length === 0) {
        ctx.status([{ text: "Give the .zotsession file: /session import <path> (dropping the file into the terminal works).", level: "warn" }], 6000);
        return;
      }
      const r = ctx.runtime.importSession(arg);
      if (!r.ok) {
        ctx.status([{ text: `Import failed: ${r.error}`, level: "error" }], 8000);
        return;
      }
      showSwitch(ctx, r.warnings, `Imported the session as ${r.path}`);
      return;
    }
    case "fork":
      return forkPicker(ctx, "Fork before which prompt?");
    case "tree":
      return treePicker(ctx);
    case "":
      return choose(ctx);
    default:
      ctx.status([{ text: `Unknown /session subcommand "${sub}". ${USAGE}`, level: "error" }], 6000);
  }
}

const SUBCOMMANDS: readonly { name: string; what: string }[] = [
  { name: "export", what: "write a portable .zotsession copy to ~/Downloads" },
  { name: "import", what: "bring in a .zotsession file and switch to it" },
  { name: "fork", what: "branch before an earlier prompt" },
  { name: "tree", what: "the branches of this directory's sessions" },
];

/** `/session` alone: pick what to do; import then asks for the file. */
function choose(ctx: CommandContext): void {
  ctx.openModal(
    new Picker(ctx, {
      title: "Session",
      items: [...SUBCOMMANDS],
      key: (c) => c.name,
      row: (c) => ({ label: c.name, detail: c.what }),
      onPick: (c) => {
        if (c.name !== "import") return sessionCommand(ctx, c.name);
        ctx.openModal(
          new TextPrompt(ctx, {
            title: "Import which file?",
            hint: "type or drop the .zotsession path · enter imports · esc cancels",
            secret: false,
            onSubmit: (path) => (path ? sessionCommand(ctx, `import ${path}`) : undefined),
          }),
        );
      },
    }),
  );
}

/**
 * Picks an earlier prompt and branches before it: the new session holds the conversation up to
 * that prompt, and the prompt's text goes back into the editor to be edited and sent again.
 */
export function forkPicker(ctx: CommandContext, title: string): void {
  const listed = ctx.runtime.sessionPrompts();
  if (!listed.ok) {
    ctx.status([{ text: `Nothing to fork: ${listed.error}.`, level: "info" }], 4000);
    return;
  }
  const prompts = [...listed.prompts].reverse();
  ctx.openModal(
    new Picker<Prompt>(ctx, {
      title,
      items: prompts,
      key: (p) => p.text,
      row: (p) => ({ label: `#${p.index + 1}`, detail: p.text.replace(/\s+/g, " ") }),
      onPick: (p) => {
        const r = ctx.runtime.forkSession(p.index);
        if (!r.ok) {
          ctx.status([{ text: `Fork failed: ${r.error}`, level: "error" }], 8000);
          return;
        }
        showSwitch(ctx, r.warnings, `Forked before prompt #${p.index + 1} into ${r.path}; the prompt is back in the editor.`);
        ctx.setEditor(r.text);
      },
      empty: "no prompts match",
    }),
  );
}

/** After a switch to another session: its chat, what loading it had to say, and what happened. */
export function showSwitch(ctx: CommandContext, warnings: readonly string[], done: string): void {
  ctx.reloadChat();
  for (const w of warnings) ctx.info(w, "warn");
  ctx.info(done, "success");
}

function treePicker(ctx: CommandContext): void {
  const rows = flattenTree(ctx.runtime.sessionTree());
  if (rows.length === 0) {
    ctx.status([{ text: "No sessions for this directory yet.", level: "info" }], 3000);
    return;
  }
  const current = rows.findIndex((r) => r.node.current);
  ctx.openModal(
    new Picker<{ node: TreeNode; depth: number }>(ctx, {
      title: "Session tree",
      items: rows,
      initial: Math.max(0, current),
      key: (r) => `${r.node.session.title} ${r.node.session.preview}`,
      row: ({ node, depth }) => ({
        label: `${"  ".repeat(depth)}${depth > 0 ? "└ " : ""}${node.session.created.replace("T", " ").slice(0, 16)}${node.current ? " [current]" : ""}`,
        detail: sessionSummary(node.session),
      }),
      onPick: ({ node }) => {
        if (node.current) return;
        const r = ctx.runtime.openSession(node.session.path);
        if (!r.ok) {
          ctx.status([{ text: r.error, level: "error" }], 8000);
          return;
        }
        showSwitch(ctx, r.warnings, `Switched to session ${node.session.path}`);
      },
    }),
  );
}
