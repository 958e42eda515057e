// Built-in slash commands. Each handler works through `CommandContext` (implemented by the app),
// so the commands read as what they do, not how the screen is managed.
import { KEYED_PROVIDERS, PERMISSION_MODES, sessionSummary, SUBSCRIPTION_NOTE, type ModelInfo } from "../../runtime/api.ts";
import { Picker, TextPrompt } from "../components/pickers.ts";
import type { InfoLevel } from "../components/chat-log.ts";
import { themeNames } from "../terminal/theme.ts";
import type { SlashItem } from "../components/slash.ts";
import { BUILTIN_COMMANDS, type BuiltinCommand } from "../../ext/name-rules.ts";
import { withLog } from "../components/load-errors.ts";
import type { CommandContext, StatusLine } from "./command-context.ts";
import { skippedExtensions, skippedLine } from "../../ext/install/trust.ts";
import { trustCommand } from "./trust-command.ts";
import { extConfig } from "./ext-config.ts";
import { sessionCommand, showSwitch } from "./session-commands.ts";
import { jailCommand } from "./jail-command.ts";
import { rewindCommand } from "./rewind-commands.ts";
import { skillsCommand } from "./skills-command.ts";
import { agentsCommand } from "./agents-command.ts";
import { jumpCommand } from "./jump.ts";
import { btwCommand } from "./btw.ts";
import { psCommand } from "./ps-command.ts";
import { MODE_HELP, permissionsPicker } from "../components/permission-view.ts";
import { addDirCommand, contextCommand, copyCommand, costCommand, doctorCommand, exportCommand, renameCommand, statusCommand } from "./daily-commands.ts";

/** The Go zot's canned /study prompt, word for word. */
const STUDY_PROMPT = "Read and understand everything in the current directory.";

const RELOAD_STATUS_MS = 5000;
/** Long enough to read a notice of skipped project code and type /trust. */
const SKIPPED_STATUS_MS = 15_000;
/** The spinner's label while the history is summarised. */
export const CONDENSING = "condensing history, esc to cancel";

type Run = (ctx: CommandContext, args: string) => void | Promise<void>;

/** What each built-in command does; the names, their order and their descriptions are BUILTIN_COMMANDS. */
const RUN: Record<BuiltinCommand, Run> = {
  help: (ctx) => ctx.info(helpText(ctx.commands())),
  exit: (ctx) => ctx.exit(),
  clear: async (ctx) => {
    await ctx.cancelTurn();
    ctx.runtime.clear();
    ctx.clearChat();
    ctx.info("Started a fresh session.");
  },
  compact: (ctx) => compact(ctx),
  "reload-ext": (ctx, args) => reload(ctx, args),
  yolo: (ctx) => {
    if (ctx.runtime.yolo) {
      ctx.status([{ text: "yolo is already on: tool calls run without asking.", level: "info" }], 4000);
      return;
    }
    ctx.runtime.yolo = true;
    ctx.status([{ text: "yolo on: tool calls run without asking for the rest of this session.", level: "warn" }], 4000);
  },
  permissions: (ctx) => permissionsPicker(ctx),
  reasoning: (ctx, args) => reasoning(ctx, args),
  init: (ctx) => ctx.submit(ctx.runtime.initPrompt()),
  model: (ctx, args) => model(ctx, args),
  sessions: (ctx) => sessions(ctx),
  theme: (ctx, args) => theme(ctx, args),
  login: (ctx, args) => login(ctx, args),
  logout: (ctx, args) => logout(ctx, args),
  session: (ctx, args) => sessionCommand(ctx, args),
  rewind: (ctx, args) => rewindCommand(ctx, args),
  study: (ctx) => ctx.submit(STUDY_PROMPT),
  skills: (ctx) => skillsCommand(ctx),
  agents: (ctx) => agentsCommand(ctx),
  jump: (ctx, args) => jumpCommand(ctx, args),
  btw: (ctx, args) => btwCommand(ctx, args),
  jail: (ctx) => jailCommand(ctx, true),
  unjail: (ctx) => jailCommand(ctx, false),
  "ext-config": (ctx, args) => extConfig(ctx, args),
  trust: (ctx) => trustCommand(ctx, (lead) => reload(ctx, "", lead)),
  ps: (ctx) => psCommand(ctx),
  cost: (ctx) => costCommand(ctx),
  context: (ctx) => contextCommand(ctx),
  status: (ctx) => statusCommand(ctx),
  doctor: (ctx) => doctorCommand(ctx),
  copy: (ctx) => copyCommand(ctx),
  rename: (ctx, args) => renameCommand(ctx, args),
  "add-dir": (ctx, args) => addDirCommand(ctx, args),
  export: (ctx, args) => exportCommand(ctx, args),
  resume: (ctx) => sessions(ctx),
  quit: (ctx) => ctx.exit(),
};

function isBuiltin(name: string): name is BuiltinCommand {
  return Object.hasOwn(RUN, name);
}

export async function runBuiltin(ctx: CommandContext, name: string, args: string): Promise<void> {
  if (isBuiltin(name)) await RUN[name](ctx, args);
}

async function compact(ctx: CommandContext): Promise<void> {
  if (ctx.busy) {
    ctx.status([{ text: "A turn is running; press esc to cancel it, then /compact.", level: "warn" }], 4000);
    return;
  }
  if (ctx.runtime.messages().length === 0) {
    ctx.status([{ text: "Nothing to compact yet.", level: "info" }], 3000);
    return;
  }
  // The chat stays as it is; the runtime's compaction events draw the marker or say what failed.
  await ctx.busyWhile(CONDENSING, async () => {
    await ctx.runtime.compact();
  });
}

/** `/reasoning [level|off]`: sets the thinking level; without an argument says what it is and what there is. */
function reasoning(ctx: CommandContext, args: string): void {
  const wanted = args.trim().toLowerCase();
  const levels = ctx.runtime.reasoningLevels();
  if (wanted === "") {
    ctx.status([{ text: `Thinking: ${ctx.runtime.reasoning ?? "off"} (levels: ${levels.join(", ")}, off; alt+t cycles).`, level: "info" }], 5000);
    return;
  }
  const r = ctx.runtime.setReasoning(wanted === "off" ? null : wanted);
  if (r.ok) ctx.status([{ text: `Thinking: ${ctx.runtime.reasoning ?? "off"}`, level: "success" }], 3000);
  else ctx.status([{ text: `${r.error}.`, level: "error" }], 6000);
}

/** alt+t: off → each level in turn → off. */
export function cycleReasoning(ctx: CommandContext): void {
  const levels = ctx.runtime.reasoningLevels();
  const current = ctx.runtime.reasoning;
  const next = current === null ? levels[0]! : (levels[levels.indexOf(current) + 1] ?? null);
  ctx.runtime.setReasoning(next);
  ctx.status([{ text: `Thinking: ${next ?? "off"} (alt+t for the next level).`, level: "info" }], 3000);
}

/** `/reload-ext [name]`; `lead` goes above what the reload says (what /trust just did). */
async function reload(ctx: CommandContext, args: string, lead: StatusLine[] = []): Promise<void> {
  const only = args.trim() || undefined;
  await ctx.cancelTurn();
  await ctx.busyWhile("reloading extensions", async () => {
    const report = await ctx.host.reload(only);
    ctx.showLoadErrors(report, only);
    const lines: StatusLine[] = [...lead];
    const isRunning = (e: { status: string }) => e.status === "ready" || e.status === "auto_ready";
    // After reloading one, the count is of every extension running now, not of the one reloaded.
    const running = (only ? ctx.host.states() : report.extensions).filter(isRunning).length;
    const all = `${running} running${only ? " in all" : ""}`;
    const scope = only ? `extension ${only}` : "extensions";
    if (report.errors.length === 0) lines.push({ text: `Reloaded ${scope}: ${all}.`, level: "success" });
    else lines.push({ text: `Reloaded ${scope}: ${all}, ${report.errors.length} failed.`, level: "warn" });
    for (const e of report.errors) lines.push({ text: `✗ ${e.extension}: ${withLog(e.message, e.log)}`, level: "error" });
    const skipped = skippedLine(ctx.runtime.cwd, "extensions", skippedExtensions(report.extensions), "tui");
    if (skipped) lines.push({ text: skipped, level: "warn" });
    ctx.status(lines, skipped ? SKIPPED_STATUS_MS : RELOAD_STATUS_MS);
  });
}

function model(ctx: CommandContext, args: string): void {
  const switchTo = (provider: string, id: string): void => {
    const r = ctx.runtime.setModel(provider, id);
    if (r.ok)
      ctx.status(
        [{ text: `Model: ${provider}/${id}`, level: "success" }, ...(r.notice ? [{ text: r.notice, level: "warn" as const }] : [])],
        r.notice ? 8000 : 3000,
      );
    else ctx.status([{ text: r.error, level: "error" }], 8000);
  };
  const wanted = args.trim();
  if (wanted) {
    const slash = wanted.indexOf("/");
    if (slash > 0) switchTo(wanted.slice(0, slash), wanted.slice(slash + 1));
    else switchTo(ctx.runtime.provider, wanted);
    return;
  }
  const models = ctx.runtime.models();
  const current = models.findIndex((m) => m.provider === ctx.runtime.provider && m.id === ctx.runtime.model);
  ctx.openModal(
    new Picker<ModelInfo>(ctx, {
      title: "Model",
      items: models,
      initial: Math.max(current, 0),
      key: (m) => `${m.provider}/${m.id}`,
      row: (m) => {
        const isCurrent = m.provider === ctx.runtime.provider && m.id === ctx.runtime.model;
        return {
          label: `${isCurrent ? "● " : "  "}${m.provider}/${m.id}`,
          detail: [
            isCurrent ? "current" : "",
            m.name !== m.id ? m.name : "",
            m.contextWindow ? `${Math.round(m.contextWindow / 1000)}k ctx` : "",
            m.reasoning ? "reasoning" : "",
            m.source,
          ]
            .filter(Boolean)
            .join(" · "),
        };
      },
      onPick: (m) => switchTo(m.provider, m.id),
      empty: "no models match",
    }),
  );
}

function sessions(ctx: CommandContext): void {
  if (ctx.busy) {
    ctx.status([{ text: "A turn is running; press esc to cancel it first.", level: "warn" }], 4000);
    return;
  }
  const list = ctx.runtime.sessions().filter((s) => s.path !== ctx.runtime.sessionPath);
  if (list.length === 0) {
    ctx.status([{ text: "No other sessions for this directory.", level: "info" }], 3000);
    return;
  }
  ctx.openModal(
    new Picker(ctx, {
      title: "Resume session",
      items: list,
      key: (s) => `${s.created} ${s.preview}`,
      row: (s) => ({ label: age(s.modified, Date.now()), detail: sessionSummary(s) }),
      onPick: (s) => {
        const r = ctx.runtime.openSession(s.path);
        if (!r.ok) {
          ctx.status([{ text: r.error, level: "error" }], 8000);
          return;
        }
        showSwitch(ctx, r.warnings, `Resumed session ${s.path}`);
      },
    }),
  );
}

/** How long ago, in the largest unit that fits: `just now`, `5m ago`, `3h ago`, `2d ago`. */
export function age(then: number, now: number): string {
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

function theme(ctx: CommandContext, args: string): void {
  const names = themeNames(ctx.host.themes());
  const choose = (name: string): void => {
    ctx.setTheme(name);
    const saved = ctx.runtime.saveSettings({ theme: name });
    if (saved.ok) ctx.status([{ text: `Theme: ${name} (saved)`, level: "success" }], 3000);
    else ctx.status([{ text: `Theme: ${name}; ${saved.error}`, level: "error" }], 8000);
  };
  const wanted = args.trim();
  if (wanted) {
    if (names.includes(wanted)) choose(wanted);
    else ctx.status([{ text: `No theme called "${wanted}"; available: ${names.join(", ")}.`, level: "error" }], 6000);
    return;
  }
  const original = ctx.themeName;
  ctx.openModal(
    new Picker<string>(ctx, {
      title: "Theme",
      items: names,
      initial: Math.max(0, names.indexOf(original)),
      key: (n) => n,
      row: (n) => ({ label: n, detail: n === original ? "current" : "" }),
      onMove: (n) => ctx.setTheme(n),
      onPick: choose,
      onCancel: () => ctx.setTheme(original),
    }),
  );
}

function login(ctx: CommandContext, args: string): void {
  const subscriptions = ctx.runtime.subscriptions();
  const ask = (provider: string): void => {
    ctx.openModal(
      new TextPrompt(ctx, {
        title: `API key for ${provider}`,
        hint: `${subscriptions.includes(provider) ? `${provider}: ${SUBSCRIPTION_NOTE} · ` : ""}paste the key · enter to save · esc to cancel`,
        secret: true,
        onSubmit: (key) => {
          if (!key) {
            ctx.status([{ text: "No key entered; nothing was saved.", level: "warn" }], 4000);
            return;
          }
          offerProbe(ctx, provider, key);
        },
      }),
    );
  };
  const wanted = args.trim();
  if (wanted) {
    ask(wanted);
    return;
  }
  ctx.openModal(
    new Picker<string>(ctx, {
      title: "Log in to provider",
      items: [...KEYED_PROVIDERS],
      initial: Math.max(0, KEYED_PROVIDERS.indexOf(ctx.runtime.provider)),
      key: (p) => p,
      row: (p) => ({ label: p, detail: subscriptions.includes(p) ? SUBSCRIPTION_NOTE : "" }),
      onPick: ask,
    }),
  );
}

function saveKey(ctx: CommandContext, provider: string, key: string, note: string, level: InfoLevel): void {
  const r = ctx.runtime.saveApiKey(provider, key);
  if (!r.ok) {
    ctx.status([{ text: r.error, level: "error" }], 8000);
    return;
  }
  // Someone on the offline mock who logs in wants the real thing now, not after a /model.
  let switched = "";
  const model = ctx.runtime.provider === "mock" && !ctx.busy ? ctx.runtime.defaultModel(provider) : null;
  if (model !== null) {
    const r = ctx.runtime.setModel(provider, model);
    if (r.ok) switched = `Switched to ${provider}/${model}.${r.notice ? ` ${r.notice}.` : ""}`;
  }
  // The switch on a line of its own: a long auth.json path must not cut it off.
  const saved = { text: `${note}Saved the ${provider} key to ${r.path} (mode 0600).`, level };
  ctx.status(switched ? [saved, { text: switched, level }] : [saved], 6000);
}

/** Offers one cheap request with the new key before saving it; a refused key is not saved. */
function offerProbe(ctx: CommandContext, provider: string, key: string): void {
  const check = ctx.runtime.keyCheck(provider, key);
  if (!check) {
    saveKey(ctx, provider, key, "", "success");
    return;
  }
  type Choice = "check" | "save";
  ctx.openModal(
    new Picker<Choice>(ctx, {
      title: `Check the ${provider} key first?`,
      items: ["check", "save"],
      key: (c) => c,
      row: (c) => (c === "check" ? { label: "check it, then save", detail: `GET ${check.url}` } : { label: "save without checking" }),
      onPick: (c) => {
        if (c === "save") return saveKey(ctx, provider, key, "", "success");
        void ctx.busyWhile("checking the key", async (signal) => {
          const r = await check.run(signal);
          if (signal.aborted) ctx.status([{ text: "Login cancelled; nothing was saved.", level: "info" }], 4000);
          else if (r.kind === "ok") saveKey(ctx, provider, key, `The key works (HTTP ${r.status} from ${r.url}). `, "success");
          else if (r.kind === "rejected")
            ctx.status(
              [
                {
                  text: `${provider} refused the key (HTTP ${r.status} from ${r.url}); nothing was saved. Run /login ${provider} to try another.`,
                  level: "error",
                },
              ],
              10_000,
            );
          else saveKey(ctx, provider, key, `Could not check the key (${r.url}: ${r.why}). `, "warn");
        });
      },
      onCancel: () => ctx.status([{ text: "Login cancelled; nothing was saved.", level: "info" }], 4000),
    }),
  );
}

function logout(ctx: CommandContext, args: string): void {
  const provider = args.trim() || ctx.runtime.provider;
  const r = ctx.runtime.removeApiKey(provider);
  if (!r.ok) ctx.status([{ text: r.error, level: "error" }], 8000);
  else if (r.removed) ctx.status([{ text: `Removed the ${provider} key from ${r.path}.`, level: "success" }], 5000);
  else ctx.status([{ text: `No stored key for ${provider} in ${r.path}.`, level: "info" }], 5000);
}

const KEY_HELP: readonly [string, string][] = [
  ["enter", "send; while a turn runs, steer it at the next tool boundary"],
  ["alt+enter / shift+enter", "new line; while a turn runs alt+enter queues for after it"],
  ["↑ with messages waiting", "take the newest waiting message back to edit"],
  ["esc", "cancel the turn (waiting messages back to the editor); idle: notes, then input"],
  ["esc esc (empty editor)", "rewind: code and/or conversation to before an earlier prompt"],
  ["ctrl+c", "cancel the turn keeping the draft; clear the input; empty: twice exits"],
  ["ctrl+d", "exit (on an empty editor)"],
  ["ctrl+o", "expand/collapse the newest block in view"],
  ["alt+o", "expand/collapse every block"],
  ["ctrl+t", "transcript view: everything, searchable (/, n, N)"],
  ["shift+tab", "permission mode: ask / auto-edit / yolo / plan"],
  ["alt+t", "thinking level: off → each level the model takes (low … max) → off"],
  ["ctrl+l", "redraw the screen"],
  ["ctrl+_", "undo the last edit"],
  ["ctrl+r", "search the prompt history"],
  ["ctrl+g", "edit the prompt in $VISUAL / $EDITOR"],
  ["ctrl+v", "paste the clipboard's image (wl-paste, xclip or pbpaste) as @path"],
  ["ctrl+z", "suspend to the shell (fg to return)"],
  ["tab after /command ", "complete its argument (/theme, /model, /reload-ext …)"],
  ["!cmd / !!cmd", "run a shell command; !! also sends its output to the model"],
  ["↑ / ↓, ctrl+p / ctrl+n", "previous / next prompt (↑/↓ first move within a multi-line prompt)"],
  ["pgup / pgdn", "scroll the chat a page"],
  ["shift+↑ / shift+↓, wheel", "scroll the chat 3 lines (alt+↑/↓ too)"],
  ["ctrl+home / ctrl+end", "top / bottom of the chat"],
  ["ctrl+a / ctrl+e, home / end", "start / end of line"],
  ["alt+left / alt+right", "word left / right"],
  ["ctrl+u / ctrl+k", "delete to start / end of line"],
  ["ctrl+w / alt+backspace", "delete the word before the cursor"],
  ["@", "pick a file (tab/enter to choose, directories open)"],
  ["/", "commands (tab completes)"],
];

export function helpText(commands: readonly SlashItem[]): string {
  const keys = KEY_HELP.map(([k, what]) => `  ${k.padEnd(28)} ${what}`).join("\n");
  const builtins = BUILTIN_COMMANDS.map((c) => `  /${c.name.padEnd(27)} ${c.description}`).join("\n");
  const md = commands.filter((c) => c.markdown);
  const mdText = md.length ? "\nMarkdown commands:\n" + md.map((c) => `  /${c.name.padEnd(27)} ${c.description}`).join("\n") : "";
  const ext = commands.filter((c) => c.extension !== null);
  const extText = ext.length ? "\nExtension commands:\n" + ext.map((c) => `  /${c.name.padEnd(27)} ${c.description} [${c.extension}]`).join("\n") : "";
  const modes = PERMISSION_MODES.map((m) => `  ${m.padEnd(28)} ${MODE_HELP[m]}`).join("\n");
  return `Keys:\n${keys}\nPermission modes (shift+tab):\n${modes}\nCommands:\n${builtins}${mdText}${extText}`;
}
