// What a built-in slash command may do, implemented by the app. Its own module so the commands in
// commands.ts and the ones split into their own files (sessions, /jail, /skills, /jump, /btw) share it
// without importing each other.
import type { AgentRuntime } from "../../runtime/api.ts";
import type { ExtensionHost, LoadReport } from "../../ext/types.ts";
import type { StyleRef } from "../components/component.ts";
import type { Modal } from "../components/pickers.ts";
import type { SlashItem } from "../components/slash.ts";
import type { InfoLevel } from "../components/chat-log.ts";

/** One line of a status message. */
export type StatusLine = { text: string; level: InfoLevel };

/** Its `style` is the current theme's, for the boxes a command opens. */
export interface CommandContext extends StyleRef {
  readonly runtime: AgentRuntime;
  readonly host: ExtensionHost;
  readonly home: string;
  readonly busy: boolean;
  readonly themeName: string;
  /** A line in the chat (never sent to the model, never saved). */
  info(text: string, level?: InfoLevel): void;
  /** A status line above the editor; `ttlMs` dismisses it on its own. */
  status(lines: StatusLine[], ttlMs: number): void;
  openModal(modal: Modal | null): void;
  /** Cancels the running turn and drops the queue; resolves once the turn has stopped. */
  cancelTurn(): Promise<void>;
  /** Runs `work` with the busy spinner labelled `label`; esc (cancelTurn) aborts `signal`. */
  busyWhile(label: string, work: (signal: AbortSignal) => Promise<void>): Promise<void>;
  /** Rebuilds the chat from the runtime's messages (after /sessions or /compact). */
  reloadChat(): void;
  /** Puts text in the editor (a forked prompt to edit and send again). */
  setEditor(text: string): void;
  /** Sends a prompt as if typed (queued while a turn runs). */
  submit(text: string): void;
  /** Draws a new frame soon (something a modal shows changed). */
  redraw(): void;
  /** The user prompts shown in the chat, oldest first. */
  turns(): string[];
  /** Scrolls the chat so the `index`-th prompt is at the top. */
  jumpTo(index: number): void;
  /** Forgets the chat, notes, queue and extension load errors (after /clear). */
  clearChat(): void;
  /** Records extension load errors as error lines that stay until a successful reload or /clear. */
  showLoadErrors(report: LoadReport, only?: string): void;
  setTheme(name: string): void;
  commands(): SlashItem[];
  /** Writes a terminal control sequence as it is (OSC 52 for /copy). */
  terminalEscape(seq: string): void;
  exit(): void;
}
