// Interactive mode: wires the terminal, key decoding, the runtime's events and the extension
// host's intents to the components, and draws coalesced frames (at most ~60 per second).
import { isDumbTerminal } from "../platform/terminal.ts";
import type { AgentEvent, ConfirmDecision, ConfirmRequest } from "../agent/events.ts";
import { imageMentions } from "./components/image-paste.ts";
import { pasteImage } from "./terminal/clipboard.ts";
import {
  EXPORT_FORMATS,
  KEYED_PROVIDERS,
  sandboxLabel,
  type AgentRuntime,
  type NotifyMode,
  type PromptOptions,
  type PromptOutcome,
  type ShellOutput,
  type SteeringMessage,
} from "../runtime/api.ts";
import type { ExtensionHost } from "../ext/types.ts";
import { commandIntents } from "../ext/command-outcome.ts";
import type { LoadReport, UiIntent } from "../ext/types.ts";
import type { CommandContext } from "./commands/command-context.ts";
import { CONDENSING, cycleReasoning, runBuiltin } from "./commands/commands.ts";
import { rewindPicker } from "./commands/rewind-commands.ts";
import { applyEvent } from "./chat-events.ts";
import { showLoadProblems, startupReport } from "./components/load-errors.ts";
import { FrameScheduler } from "./terminal/scheduler.ts";
import { ApprovalDialog } from "./components/approval-dialog.ts";
import { cycleMode } from "./components/permission-view.ts";
import { offerPlanApproval } from "./components/plan-approval.ts";
import { offerMoreSteps } from "./components/step-limit.ts";
import { historySearch } from "./components/history-search.ts";
import { ChatOverview } from "./components/chat-overview.ts";
import { EXIT_LINES, exitText } from "./exit-print.ts";
import { editExternally } from "./terminal/external-editor.ts";
import { completeArg } from "./commands/arg-completion.ts";
import { parseShellCommand, sharedPrompt, type ShellCommand } from "./commands/shell-command.ts";
import { notification, NOTIFY_AFTER_MS, resolveNotify, titleText } from "./terminal/attention.ts";
import { cleanInput, Editor } from "./components/editor.ts";
import { History } from "./history.ts";
import { KeyDecoder, keyLabel, typedAhead, wheelDirection, type Key } from "./terminal/keys.ts";
import { layout } from "./layout.ts";
import { Container, type Component } from "./components/component.ts";
import { EditorBox } from "./components/editor-box.ts";
import { Notes } from "./components/notes.ts";
import type { Modal } from "./components/pickers.ts";
import { PromptQueue } from "./components/queued-prompts.ts";
import { TodoView } from "./components/todo-view.ts";
import { Renderer } from "./terminal/renderer.ts";
import { markdownCommandNotes, markdownCommands, markdownPrompt, parseSlash } from "../modes/slash.ts";
import { redactingEvents } from "../modes/redacting.ts";
import { redactDeep } from "../redact.ts";
import { findCommand, nearestCommand, slashItems, type SlashItem } from "./components/slash.ts";
import { EditorPopups } from "./components/popups.ts";
import { PanelSlot } from "./components/panel-slot.ts";
import { extensionCounts, StatusBar, type StatusInfo } from "./components/status-bar.ts";
import { processTerminal } from "./terminal/process-terminal.ts";
import { installRestoreHandlers, type Terminal } from "./terminal/terminal.ts";
import { detectBackground, savedTheme, styleFor, themeNames, type Style, type ThemeChoice } from "./terminal/theme.ts";
import { INTERRUPTED_MARK, ChatLog, type InfoLevel } from "./components/chat-log.ts";
import { showIntent, type IntentTargets } from "./intent-view.ts";
import { ChatScroll } from "./scroll.ts";
import { TransientMessages } from "./components/transient-messages.ts";
import { replay } from "./replay.ts";
import { shortDir, shortPath } from "./paths.ts";
import { gitBranch } from "./git-branch.ts";

export type TuiOptions = {
  home: string;
  initialPrompt?: string | undefined;
  /** `zot -r`: open the /sessions picker at start (an initial prompt then waits in the editor). */
  resume?: boolean;
  /** One-line notices from startup (unknown model, config warnings) shown in the chat. */
  notices: string[];
};

const FRAME_MS = 16;
/** Redraws while something animates (spinner, elapsed time); matches the spinner's frame length. */
const TICK_MS = 80;
/** A lone ESC byte is the esc key only if nothing follows it this soon; otherwise it starts a sequence. */
const ESC_TIMEOUT_MS = 30;
/** A second ctrl+c within this window exits. */
const EXIT_WINDOW_MS = 2000;
const LINE_SCROLL = 3;
/** Two esc presses this close together on an empty editor open the rewind picker. */
const DOUBLE_ESC_MS = 600;
/** Drafts this long (or of several lines) need a second esc to clear. */
const LONG_DRAFT_CHARS = 40;
const isLongDraft = (text: string): boolean => text.length >= LONG_DRAFT_CHARS || text.includes("\n");

export async function runTui(runtime: AgentRuntime, host: ExtensionHost, opts: TuiOptions): Promise<number> {
  if (isDumbTerminal(process.env)) {
    const { runLineMode } = await import("./line-mode.ts");
    return runLineMode(runtime, opts);
  }
  const app = new App(runtime, host, opts, processTerminal());
  return app.run();
}

class App implements CommandContext {
  readonly home: string;
  themeName = "dark";
  /** The current theme's Style: every component reads it from here when it renders. */
  style: Style;
  /** While a frame is drawn, its time: every spinner and elapsed time in it agrees. */
  private frameAt: number | null = null;
  private readonly clock = (): number => this.frameAt ?? Date.now();
  private readonly renderer: Renderer;
  private readonly decoder = new KeyDecoder();
  private readonly transcript = new ChatLog(this, this.clock);
  private readonly notes = new Notes(this);
  private readonly editor: Editor;
  private readonly editorBox: EditorBox;
  private readonly queue = new PromptQueue(this);
  /** The model's todo list, shown while a turn runs. */
  private readonly todoView = new TodoView(this, () => (this.turn ? this.runtime.todos() : []));
  private readonly popups: EditorPopups;
  private readonly panels: PanelSlot;
  private modal: Modal | null = null;
  /** ctrl+t: the full transcript view, which then has the screen and the keys. */
  private view: ChatOverview | null = null;
  private confirms: ApprovalDialog[] = [];
  private readonly transientMessages = new TransientMessages(this);
  private readonly statusBar = new StatusBar(this, this.clock, () => this.statusInfo());
  private readonly scroll = new ChatScroll();
  private readonly intentTargets: IntentTargets;
  /** The running turn or busy command; `stop` cancels work that is not the runtime's (a key check). */
  private turn: { since: number; label: string; done: Promise<void>; stop?: () => void; retry?: { at: number; attempt: number; attempts: number } } | null =
    null;
  private ctrlCAt = 0;
  /** The last esc on an empty editor (a second one soon after opens the rewind picker). */
  private emptyEscAt = 0;
  /** When esc last asked to confirm clearing a long draft. */
  private draftEscAt = 0;
  private readonly notifyMode: Exclude<NotifyMode, "auto">;
  /** The status line's directory and git branch; the branch is read again after each turn. */
  private place: { dir: string; branch: string | null };
  /** The window title last written. */
  private title = "";
  /** The runtime is summarising the history (the spinner says so; esc cancels it). */
  private condensing = false;
  private readonly frames = new FrameScheduler(() => this.draw(), FRAME_MS);
  private escTimer: ReturnType<typeof setTimeout> | null = null;
  /** Whether any input was read yet: the first may have been typed during start-up (see typedAhead). */
  private readInput = false;
  private closing = false;
  private readonly theme: ThemeChoice;
  private finish: (code: number) => void = () => {};

  constructor(
    readonly runtime: AgentRuntime,
    readonly host: ExtensionHost,
    private readonly opts: TuiOptions,
    private readonly term: Terminal,
  ) {
    this.home = opts.home;
    this.renderer = new Renderer((s) => term.write(s));
    this.editor = new Editor(new History(runtime.promptHistoryFile()), this);
    this.editorBox = new EditorBox(this.editor, this, () => this.placeholder());
    this.popups = new EditorPopups(this, runtime.cwd, this.editor, () => this.commands());
    this.panels = new PanelSlot(host, this, () => this.schedule());
    const settings = runtime.settings();
    this.theme = savedTheme(settings.theme, host.themes());
    this.style = this.makeStyle(this.theme.name);
    this.place = { dir: shortDir(runtime.cwd), branch: gitBranch(runtime.cwd) };
    this.notifyMode = resolveNotify(settings.notify ?? "auto", process.env);
    this.intentTargets = {
      notes: this.notes,
      editor: this.editor,
      popups: this.popups,
      panels: this.panels,
      submitPrompt: (text, from) => this.submitPrompt(text, from),
      status: (lines, ttlMs) => this.status(lines, ttlMs),
    };
  }

  get busy(): boolean {
    return this.turn !== null;
  }

  async run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finish = resolve));
    this.term.enter({ altScreen: true });
    const cleanups = [
      installRestoreHandlers(this.term),
      this.term.onData((data) => this.onInput(data)),
      this.term.onResize(() => {
        this.renderer.invalidate();
        this.frames.now();
      }),
      // Keys and settings secrets are masked on screen as in every other mode (streamed pieces across their boundaries).
      this.runtime.subscribe(redactingEvents(this.runtime.secrets, (ev) => this.onEvent(redactDeep(ev, this.runtime.secrets)))),
    ];
    const ticker = setInterval(() => this.tick(), TICK_MS);
    this.runtime.setConfirmHandler((req) => this.confirm(redactDeep(req, this.runtime.secrets)));
    this.runtime.setSteering(() => this.takeSteering());
    // A resumed session (`zot -c`, `--session`) shows where it left off.
    if (this.runtime.messages().length > 0) replay(this.transcript, this.runtime.messages());
    this.startupMessages();
    this.frames.now();
    // A saved theme choice wins over the terminal's background.
    if (!this.theme.saved) void this.detectTheme();
    if (this.opts.resume) {
      // The prompt belongs to the session the user is about to pick, so it waits in the editor.
      if (this.opts.initialPrompt?.trim()) this.editor.setText(cleanInput(this.opts.initialPrompt));
      void runBuiltin(this, "sessions", "");
    } else if (this.opts.initialPrompt?.trim()) this.submitPrompt(this.opts.initialPrompt, null);
    // Intents last: what extensions sent during load (a `submit` starts a turn) then follows the
    // startup lines and queues behind the prompt given on the command line.
    cleanups.push(this.runtime.onIntent((intent) => this.onIntent(intent)));

    const code = await done;
    clearInterval(ticker);
    this.frames.stop();
    if (this.escTimer) clearTimeout(this.escTimer);
    this.runtime.setConfirmHandler(null);
    this.runtime.setSteering(null);
    for (const c of this.confirms) c.cancel();
    if (this.turn) {
      this.runtime.abort();
      await this.turn.done;
    }
    this.term.restore();
    this.term.write(this.exitPrint());
    for (const off of cleanups) off();
    return code;
  }

  /** The conversation as it was on screen, for the main screen's scrollback after exit. */
  private exitPrint(): string {
    const width = this.term.columns;
    const lines = this.transcript.window(width, EXIT_LINES, 0);
    return exitText(lines, this.runtime.sessionPath, (s) => this.style.fg("muted", s));
  }

  // ------------------------------------------------------------ CommandContext

  info(text: string, level: InfoLevel = "info"): void {
    this.transcript.addInfo(text, level);
    this.scroll.toBottom();
    this.schedule();
  }

  status(lines: { text: string; level: InfoLevel }[], ttlMs: number): void {
    this.transientMessages.set(lines, ttlMs);
    this.schedule();
  }

  openModal(modal: Modal | null): void {
    this.modal = modal;
    this.schedule();
  }

  async cancelTurn(): Promise<void> {
    this.queue.clear();
    for (const c of this.confirms) c.cancel();
    this.confirms = [];
    if (!this.turn) return;
    this.runtime.abort();
    this.turn.stop?.();
    await this.turn.done;
  }

  async busyWhile(label: string, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    // Never two things at once: busy work started beside a turn would take over its place.
    if (this.turn) {
      this.status([{ text: "A turn is running; wait for it (or press esc), then try again.", level: "warn" }], 4000);
      return;
    }
    let release: () => void = () => {};
    const done = new Promise<void>((r) => (release = r));
    const stop = new AbortController();
    this.turn = { since: Date.now(), label, done, stop: () => stop.abort() };
    this.schedule();
    try {
      await work(stop.signal);
    } finally {
      this.turn = null;
      release();
      this.schedule();
      this.deliverQueued();
    }
  }

  reloadChat(): void {
    this.transcript.clear();
    replay(this.transcript, this.runtime.messages());
    this.scroll.toBottom();
    this.schedule();
  }

  setEditor(text: string): void {
    this.editor.setText(text);
    this.schedule();
  }

  submit(text: string): void {
    this.submitPrompt(text, null);
  }

  redraw(): void {
    this.schedule();
  }

  turns(): string[] {
    return this.transcript.userTexts();
  }

  jumpTo(index: number): void {
    const below = this.transcript.linesFromUser(index, this.term.columns);
    if (below === null) return;
    // The notes under the chat count as lines below it too.
    this.scroll.reveal(below + this.notesBelow(this.term.columns));
    this.schedule();
  }

  clearChat(): void {
    this.transcript.clear();
    this.notes.clear();
    this.queue.clear();
    this.transientMessages.clear();
    this.scroll.toBottom();
    this.schedule();
  }

  showLoadErrors(report: LoadReport, only?: string): void {
    showLoadProblems(this.transcript, report, only);
    this.schedule();
  }

  setTheme(name: string): void {
    this.style = this.makeStyle(name);
    for (const c of this.components()) c.invalidate();
    this.renderer.invalidate();
    this.schedule();
  }

  commands(): SlashItem[] {
    return slashItems(this.host.commands(), markdownCommands(this.runtime, this.host));
  }

  terminalEscape(seq: string): void {
    this.term.write(seq);
  }

  exit(): void {
    if (this.closing) return;
    this.closing = true;
    this.frames.stop();
    this.finish(0);
  }

  // ------------------------------------------------------------ input

  private onInput(chunk: string): void {
    const data = this.readInput ? chunk : typedAhead(chunk);
    this.readInput = true;
    if (this.escTimer) {
      clearTimeout(this.escTimer);
      this.escTimer = null;
    }
    const keys = this.decoder.feed(data);
    const wheel = wheelDirection(keys);
    if (wheel !== 0 && !this.view && !this.confirms[0] && !this.modal && !this.panels.panel && !this.popups.open) this.scroll.by(wheel * keys.length);
    else for (const key of keys) this.onKey(key);
    if (this.decoder.pending) {
      this.escTimer = setTimeout(() => {
        this.escTimer = null;
        for (const key of this.decoder.flush()) this.onKey(key);
        this.schedule();
      }, ESC_TIMEOUT_MS);
    }
    this.schedule();
  }

  private onKey(key: Key): void {
    if (this.closing) return;
    const label = keyLabel(key);
    const text = (key.name === "rune" && !key.ctrl && !key.alt) || key.name === "paste" ? (key.text ?? "") : null;
    if (label === "ctrl+l") {
      this.renderer.invalidate();
      return;
    }
    if (this.view) {
      if (this.view.handle(label, text)) {
        this.view = null;
        this.renderer.invalidate();
      }
      return;
    }
    const dialog = this.confirms[0];
    if (dialog) {
      if (!dialog.handle(label, text)) return;
      this.confirms.shift();
      // esc and ctrl+c in the dialog stop the turn: waiting messages go back to the editor.
      if (label === "esc" || label === "ctrl+c") this.restoreQueue();
      return;
    }
    if (this.modal) {
      const m = this.modal;
      if (m.handle(label, text) && this.modal === m) this.modal = null;
      return;
    }
    if (this.panels.panel) return this.panels.key(key, label);
    if (this.popups.handle(label, () => this.submitEditor())) return;
    this.globalKey(key, label, text);
    this.popups.refresh();
  }

  private globalKey(key: Key, label: string, text: string | null): void {
    switch (label) {
      case "enter":
        return this.submitEditor();
      case "alt+enter":
        // While a turn runs, alt+enter waits for the turn to end instead of steering it.
        if (this.turn) return this.submitEditor("after");
        break;
      case "esc":
        return this.escape();
      case "ctrl+c":
        return this.ctrlC();
      case "ctrl+d":
        if (this.editor.empty) return this.exit();
        break;
      case "ctrl+o":
        // The newest block in view; with none (or none collapsible), everything.
        if (!this.transcript.toggleVisible(this.term.columns, this.scroll.viewHeight, this.scroll.offset)) this.transcript.toggleExpanded();
        return;
      case "alt+o":
        this.transcript.toggleExpanded();
        return;
      case "alt+t":
        return cycleReasoning(this);
      case "ctrl+t":
        this.view = new ChatOverview(this, this.transcript);
        return;
      case "shift+tab":
        return cycleMode(this);
      case "ctrl+r":
        this.modal = historySearch(this.editor, this, () => this.status([{ text: "No earlier prompts in this project yet.", level: "info" }], 3000));
        return;
      case "ctrl+g":
        return this.externalEdit();
      case "ctrl+v":
        return this.pasteClipboardImage();
      case "ctrl+z":
        this.term.suspend(() => {
          this.renderer.invalidate();
          this.frames.now();
        });
        return;
      case "tab":
        if (this.completeArgument()) return;
        break;
      case "pageup":
        return this.scroll.page(1);
      case "pagedown":
        return this.scroll.page(-1);
      case "shift+up":
      case "alt+up":
        return this.scroll.by(LINE_SCROLL);
      case "shift+down":
      case "alt+down":
        return this.scroll.by(-LINE_SCROLL);
      case "ctrl+end":
        return this.scroll.toBottom();
      case "ctrl+home":
        return this.scroll.toTop();
      case "ctrl+p":
        this.editor.historyPrev();
        return;
      case "ctrl+n":
        this.editor.historyNext();
        return;
      case "up":
      case "down": {
        // Like a shell: up on an empty editor recalls the previous prompt (the chat scrolls with
        // pgup/pgdn and shift+up/down); a queued message comes back first, to be edited.
        if (label === "up" && this.editor.empty && this.queue.length > 0) {
          this.editor.setText(this.queue.pop()!.text);
          return;
        }
        if (this.editor.handle(label, null)) return;
        if (label === "up") this.editor.historyPrev();
        else this.editor.historyNext();
        return;
      }
    }
    if (key.name === "paste") {
      // A dropped image file arrives as its path: it becomes an `@` mention, attached on send.
      const images = imageMentions(key.text ?? "", this.runtime.cwd);
      if (images) this.editor.insert(images);
      else this.editor.paste(key.text ?? "");
      return;
    }
    this.editor.handle(label, text);
  }

  private submitEditor(when: "steer" | "after" = "steer"): void {
    const raw = this.editor.text;
    if (raw.trim() === "") return;
    const shell = parseShellCommand(raw);
    if (shell) {
      // One thing runs at a time; the command stays in the editor for when the turn is over.
      if (this.turn) return this.status([{ text: "A turn is running; run the ! command when it has finished (esc cancels the turn).", level: "warn" }], 4000);
      this.editor.submit();
      void this.runShell(shell);
      return;
    }
    // A prompt that starts with an absolute path ("/etc/hosts looks wrong") is not a command.
    const cmd = parseSlash(raw);
    if (cmd) {
      const item = findCommand(this.commands(), cmd.name);
      if (!item) {
        const near = nearestCommand(this.commands(), cmd.name);
        const hint = near ? `did you mean /${near.name}? ` : "";
        this.status([{ text: `Unknown command /${cmd.name}; ${hint}type / to see the commands.`, level: "error" }], 5000);
        return;
      }
      this.editor.submit();
      void this.runCommand(item, cmd.args);
      return;
    }
    this.submitPrompt(this.editor.submit(), null, when);
  }

  private async runCommand(item: SlashItem, args: string): Promise<void> {
    try {
      if (item.markdown) {
        const md = markdownPrompt(this.runtime, this.host, item.name, args);
        if (!md) return this.status([{ text: `/${item.name} is gone: ${item.markdown.path} was removed or renamed.`, level: "error" }], 6000);
        if (this.turn) return this.status([{ text: `A turn is running; run /${item.name} when it has finished (esc cancels the turn).`, level: "warn" }], 4000);
        this.startTurn(md.text, md.options);
        return;
      }
      if (item.extension === null) {
        await runBuiltin(this, item.name, args);
        return;
      }
      const r = await this.host.invokeCommand(item.name, args);
      if (!r.ok) {
        // An extension that died holding the command is already in the chat as a note; once is enough.
        if (!("gone" in r)) this.status([{ text: r.error, level: "error" }], 8000);
        return;
      }
      for (const intent of commandIntents(r.extension, r.response)) this.onIntent(intent);
    } catch (err) {
      this.status([{ text: `/${item.name} failed: ${err instanceof Error ? err.message : String(err)}`, level: "error" }], 8000);
    } finally {
      this.schedule();
    }
  }

  private escape(): void {
    if (this.turn) {
      this.restoreQueue();
      void this.cancelTurn();
      this.notes.clear();
      this.status([{ text: "Cancelled.", level: "warn" }], 2000);
      return;
    }
    if (this.editor.empty) {
      // Esc twice on an empty editor rewinds: pick an earlier prompt, then what to restore.
      const now = Date.now();
      if (now - this.emptyEscAt < DOUBLE_ESC_MS) {
        this.emptyEscAt = 0;
        return rewindPicker(this);
      }
      this.emptyEscAt = now;
    }
    if (this.notes.clear()) return;
    // A long draft is not thrown away by one stray esc.
    if (isLongDraft(this.editor.text)) {
      const now = Date.now();
      if (now - this.draftEscAt > EXIT_WINDOW_MS) {
        this.draftEscAt = now;
        this.status([{ text: "Press esc again to clear the draft (ctrl+_ undoes).", level: "info" }], EXIT_WINDOW_MS);
        return;
      }
      this.draftEscAt = 0;
      this.transientMessages.clear();
      this.editor.clear();
      return;
    }
    if (this.transientMessages.clear()) return;
    this.editor.clear();
  }

  /** ctrl+v: the clipboard's image, saved to a private temp file, goes into the prompt as `@path`. */
  private pasteClipboardImage(): void {
    const r = pasteImage();
    if (!r.ok) return this.status([{ text: r.error, level: "warn" }], 6000);
    this.editor.insert(`@${r.path} `);
    this.status([{ text: `Pasted the clipboard's image (${r.bytes} bytes, from ${r.tool}); it is attached when you send.`, level: "success" }], 4000);
  }

  private externalEdit(): void {
    const r = editExternally(this.editor.text, process.env, (fn) => this.term.lend(fn));
    this.renderer.invalidate();
    if (r.ok) this.editor.setText(r.text);
    else this.status([{ text: r.error, level: "error" }], 8000);
  }

  private completeArgument(): boolean {
    const done = completeArg(this.editor.text, {
      theme: () => themeNames(this.host.themes()),
      model: () => this.runtime.models().map((m) => `${m.provider}/${m.id}`),
      "reload-ext": () => this.host.states().map((e) => e.name),
      login: () => KEYED_PROVIDERS,
      reasoning: () => [...this.runtime.reasoningLevels(), "off"],
      logout: () => KEYED_PROVIDERS,
      export: () => EXPORT_FORMATS,
    });
    if (!done) return this.editor.text.startsWith("/");
    this.editor.setText(done.text);
    if (done.candidates.length > 1) {
      const shown = done.candidates.slice(0, 8).join("  ");
      this.status([{ text: shown + (done.candidates.length > 8 ? `  … ${done.candidates.length - 8} more` : ""), level: "info" }], 5000);
    }
    return true;
  }

  /** `!cmd`: runs in the shell, output in the chat; `!!cmd` also sends it to the model. */
  private async runShell(cmd: ShellCommand): Promise<void> {
    const id = `shell-${Date.now()}`;
    this.scroll.toBottom();
    this.transcript.toolCall(id, "!", { command: cmd.command }, undefined, Date.now());
    let out: ShellOutput | null = null;
    await this.busyWhile("running a shell command", async (signal) => {
      out = await this.runtime.shell(cmd.command, signal, (text) => {
        this.transcript.toolProgress(id, text);
        this.schedule();
      });
      this.transcript.toolResult(id, "!", [{ type: "text", text: out.text }], out.isError, 0, undefined, Date.now());
    });
    if (out && cmd.share) this.submitPrompt(sharedPrompt(cmd.command, out), null);
  }

  /**
   * Busy: cancel the turn, keeping the draft (and the queued messages, put back in it). Idle with
   * text: clear it, nothing more. Idle and empty: the first press arms exit, a second within 2 s exits.
   */
  private ctrlC(): void {
    if (this.turn) {
      this.restoreQueue();
      void this.cancelTurn();
      this.status([{ text: "Cancelled.", level: "warn" }], 2000);
      return;
    }
    if (!this.editor.empty) {
      this.ctrlCAt = 0;
      this.editor.clear();
      return;
    }
    const now = Date.now();
    if (now - this.ctrlCAt < EXIT_WINDOW_MS) return this.exit();
    this.ctrlCAt = now;
    this.status([{ text: "Press ctrl+c again to exit.", level: "info" }], EXIT_WINDOW_MS);
  }

  // ------------------------------------------------------------ prompts

  /** Queued messages go back into the editor (before the draft) instead of being dropped. */
  private restoreQueue(): void {
    this.putBack(this.queue.drain().map((q) => q.text));
  }

  /** Texts go back into the editor, before whatever draft is there. */
  private putBack(texts: string[]): void {
    if (texts.length === 0) return;
    const draft = this.editor.text;
    this.editor.setText([...texts, ...(draft.trim() ? [draft] : [])].join("\n"));
  }

  /** The steering messages for the tool boundary the loop reached, shown in the chat as they go. */
  private takeSteering(): SteeringMessage[] {
    const out: SteeringMessage[] = [];
    for (const q of this.queue.takeSteering()) {
      this.transcript.addUser(q.text);
      const mentions = this.runtime.mentions(q.text);
      for (const a of mentions.attached) this.transcript.addInfo(a.summary, a.level);
      out.push({ text: q.text, attachments: mentions.parts });
    }
    if (out.length > 0) this.schedule();
    return out;
  }

  private submitPrompt(text: string, from: string | null, when: "steer" | "after" = "after"): void {
    if (text.trim() === "") return;
    // Sending something means the user is not on the way out.
    this.ctrlCAt = 0;
    if (this.turn) {
      this.queue.push(text, from, when);
      this.schedule();
      return;
    }
    this.startTurn(text);
  }

  private startTurn(text: string | null, options: PromptOptions = {}): void {
    this.notes.clear();
    this.scroll.toBottom();
    let run: Promise<PromptOutcome>;
    if (text === null) run = this.runtime.resume();
    else {
      this.transcript.addUser(text);
      const mentions = this.runtime.mentions(text);
      for (const a of mentions.attached) this.transcript.addInfo(a.summary, a.level);
      run = this.runtime.prompt(text, mentions.parts, options);
    }
    const done = run
      .then((outcome) => {
        // A prompt that got nothing back (cancelled while waiting, or the provider failed for good) is not lost: it returns to the editor.
        if (text !== null && ((outcome.stop === "error" && !outcome.blocked) || (outcome.stop === "aborted" && !this.transcript.answeredSincePrompt())))
          this.putBack([text]);
        if (outcome.stop === "aborted") {
          this.transcript.abortRunning(Date.now());
          this.transcript.addMarker(INTERRUPTED_MARK, "warn");
        } else if (outcome.stepLimit !== undefined && this.queue.length === 0) offerMoreSteps(this, outcome.stepLimit, () => this.startTurn(null));
        else if (this.runtime.mode === "plan" && outcome.text.trim() !== "" && this.queue.length === 0)
          offerPlanApproval(this, (t) => this.submitPrompt(t, null));
      })
      .catch((err: unknown) => {
        this.transcript.addInfo(`The turn failed: ${err instanceof Error ? err.message : String(err)}`, "error");
      })
      .finally(() => {
        this.transcript.closeStreams();
        this.attention("zot finished the turn");
        this.place = { dir: this.place.dir, branch: gitBranch(this.runtime.cwd) };
        this.turn = null;
        this.schedule();
        this.deliverQueued();
      });
    this.turn = { since: Date.now(), label: "working", done };
    this.schedule();
  }

  /** A bell or notification, when the running turn has taken long enough that the user may have looked away. */
  private attention(message: string): void {
    if (this.closing || !this.turn || Date.now() - this.turn.since < NOTIFY_AFTER_MS) return;
    this.term.write(notification(this.notifyMode, message));
  }

  private deliverQueued(): void {
    if (this.turn || this.closing) return;
    const next = this.queue.shift();
    if (next) this.startTurn(next.text);
  }

  private confirm(req: ConfirmRequest): Promise<ConfirmDecision> {
    // A subagent's call has no block of its own in the chat (its ids are its own); the dialog names
    // it, and its subagent's block says it waits.
    const agent = req.agent;
    const wait = (waiting: boolean): void =>
      agent ? this.transcript.subagentAwaiting(agent.id, waiting) : this.transcript.awaitApproval(req.id, waiting, Date.now());
    wait(true);
    this.attention("zot is waiting for your approval");
    return new Promise((resolve) => {
      this.confirms.push(
        new ApprovalDialog(this, req, (decision) => {
          wait(false);
          resolve(decision);
        }),
      );
      this.schedule();
    });
  }

  // ------------------------------------------------------------ runtime events and host intents

  private onEvent(ev: AgentEvent): void {
    if (ev.type === "retry" && !ev.wire && this.turn) this.turn.retry = { at: Date.now() + ev.delay_ms, attempt: ev.attempt, attempts: ev.attempts };
    // A write's diff is worked out now, while the file still holds what the write replaces.
    if (ev.type === "tool_call" && ev.name === "write" && !ev.extension && ev.change) this.transcript.setChange(ev.id, ev.change);
    if (ev.type === "compaction_start") this.condensing = true;
    else if (ev.type === "compaction_end") this.condensing = false;
    if (applyEvent(this.transcript, ev, Date.now())) this.schedule();
  }

  private onIntent(intent: UiIntent): void {
    // What an extension shows is masked; what it submits or inserts is input, passed on as given.
    const input = intent.kind === "submit" || intent.kind === "prompt" || intent.kind === "insert";
    showIntent(input ? intent : redactDeep(intent, this.runtime.secrets), this.intentTargets);
    this.schedule();
  }

  /** "working", or while a failed model request waits for its next attempt, a countdown to it. */
  private busyLabel(now: number): string {
    const retry = this.turn?.retry;
    if (!retry) return this.turn?.label ?? "";
    const left = Math.ceil((retry.at - now) / 1000);
    const attempt = `attempt ${retry.attempt} of ${retry.attempts}`;
    return left > 0 ? `retrying in ${left} s (${attempt})` : `${this.turn?.label ?? ""} (${attempt})`;
  }

  // ------------------------------------------------------------ startup and theme

  private startupMessages(): void {
    this.transcript.addInfo(
      `zot · ${this.runtime.provider}/${this.runtime.model} · ${sandboxLabel(this.runtime.sandbox)} · / for commands, @ for files, /help for keys`,
      "info",
    );
    if (this.theme.warning) this.transcript.addInfo(this.theme.warning, "warn");
    const instructions = this.runtime.instructionFiles();
    if (instructions.length > 0) this.transcript.addInfo(`Project instructions: ${instructions.map((p) => shortPath(p)).join(", ")}`, "info");
    const report = startupReport(this.host.states());
    // Load errors get their own lines (removable by a good reload), so the same news in a
    // startup notice is not repeated.
    for (const n of this.opts.notices) if (!report.errors.some((e) => n.includes(e.message))) this.transcript.addInfo(n, "warn");
    showLoadProblems(this.transcript, report);
    for (const line of markdownCommandNotes(
      this.runtime.customCommands(),
      this.host.commands().map((c) => c.name),
    ))
      this.transcript.addInfo(line, "warn");
    for (const line of this.runtime.agents().warnings) this.transcript.addInfo(line, "warn");
  }

  private async detectTheme(): Promise<void> {
    const bg = await detectBackground(process.env, {
      isTTY: this.term.isTTY,
      write: (s) => this.term.write(s),
      onData: (fn) => this.term.onData(fn),
    });
    if (bg === "light" && this.themeName === "dark") this.setTheme("light");
  }

  private makeStyle(name: string): Style {
    this.themeName = name;
    return styleFor(name, this.host.themes(), process.env);
  }

  // ------------------------------------------------------------ frames

  private tick(): void {
    const now = Date.now();
    const expired = this.transientMessages.expire(now);
    if (this.turn || expired || this.transcript.hasRunningTool) this.schedule();
  }

  private schedule(): void {
    this.frames.schedule();
  }

  /** What the empty editor says: who has the keys, or what enter does now. */
  private placeholder(): string {
    if (this.confirms[0]) return "answer the question above";
    if (this.modal) return "the box above has the keys · esc closes it";
    if (this.panels.panel) return `the panel has the keys · ${this.panels.panel.takesEsc ? "ctrl+c" : "esc"} closes it`;
    if (this.turn) return "enter steers the running turn · alt+enter queues for after it · esc cancels";
    return "Ask anything · / commands · @ files";
  }

  private statusInfo(): StatusInfo {
    return {
      provider: this.runtime.provider,
      model: this.runtime.model,
      context: this.runtime.context(),
      usage: this.runtime.usage(),
      busySince: this.turn?.since ?? null,
      busyLabel: this.confirms[0] ? "waiting for approval" : this.condensing ? CONDENSING : this.busyLabel(this.clock()),
      extensions: extensionCounts(this.host.states()),
      mode: this.runtime.mode,
      jailed: this.runtime.jail !== null,
      sandbox: this.runtime.sandbox,
      place: this.place,
      reasoning: this.runtime.reasoning,
    };
  }

  /** Every component alive now, for a theme change to invalidate. */
  private components(): Component[] {
    const open = [this.view, this.panels.panel, this.modal, ...this.confirms].filter((c) => c !== null);
    return [this.transcript, this.notes, this.todoView, this.transientMessages, this.queue, this.popups, this.editorBox, this.statusBar, ...open];
  }

  private draw(): void {
    this.frameAt = Date.now();
    try {
      this.drawFrame();
    } finally {
      this.frameAt = null;
    }
  }

  private drawFrame(): void {
    const width = this.term.columns;
    const rows = this.term.rows;
    const title = titleText(this.runtime.cwd, this.confirms[0] ? "waiting for approval" : this.turn ? "working" : "idle");
    if (title !== this.title) {
      this.title = title;
      this.term.write(title);
    }
    if (this.view) {
      this.renderer.render(this.view.render(width, rows), null, rows, width);
      return;
    }
    const notes = this.notesBelow(width);
    this.scroll.follow(this.transcript.grown(width) + notes);
    // Laid out anew while scrolled back: the lines read last stay where they were on the screen.
    const kept = this.scroll.offset > 0 ? this.transcript.keptOffset(width) : null;
    if (kept !== null) this.scroll.keep(kept + notes);
    // The dialog, a modal and the editor's popups share the place above the editor, in that order.
    const overlay = this.confirms[0] ?? this.modal ?? this.popups;
    const editorFocused = !this.panels.panel && !this.confirms[0] && !this.modal;
    const frame = layout(
      {
        chat: this.transcript,
        notes: this.notes,
        offset: this.scroll.offset,
        above: new Container([this.todoView, this.transientMessages, this.queue, overlay]),
        panel: this.panels.panel,
        editor: this.editorBox,
        status: this.statusBar,
        focused: editorFocused ? this.editorBox : null,
        style: this.style,
      },
      width,
      rows,
    );
    this.scroll.settle(frame);
    this.renderer.render(frame.lines, frame.cursor, rows, width);
    this.panels.announceSize();
  }

  /** The notes under the chat and the blank line above them: lines below the transcript that scroll with it. */
  private notesBelow(width: number): number {
    const n = this.notes.render(width).length;
    return n > 0 ? n + 1 : 0;
  }
}
