// The chat transcript: user prompts, streamed assistant Markdown, thinking, tool blocks and info
// lines. Each entry caches its height per width, and its rendered lines while it was drawn lately
// (a few screens' worth), so a streamed delta re-renders only the entry it touched, the frame costs
// O(visible lines), not O(transcript), and a long resumed history does not keep every entry's lines.
import type { ContentBlock } from "../../protocol.ts";
import type { Json } from "../../json.ts";
import { sanitize } from "../terminal/ansi.ts";
import { renderMarkdown, StreamingMarkdown } from "./markdown.ts";
import { formatCount, formatDuration, spinnerFrame } from "./spinner.ts";
import type { Scrollable, StyleRef } from "./component.ts";
import type { Style } from "../terminal/theme.ts";
import { truncate, wrap } from "../terminal/wrap.ts";
import { renderDiff, renderNumbered } from "./diff-view.ts";
import type { ApprovalDetail, SubagentStatus } from "../../agent/events.ts";
import { visibleWidth } from "../terminal/width.ts";
import { HeightIndex } from "./height-index.ts";

export const COLLAPSED_TOOL_LINES = 12;
export const COLLAPSED_USER_LINES = 12;
/** How many rendered lines the chat keeps for the entries drawn last (a few screens); the others keep only their height. */
const KEPT_LINES = 2000;
/** More entries than this added between two frames are a history laid in at once (a resume, a replay): counted from the bottom as the view needs, not all in one frame. */
const BULK_ENTRIES = 256;
/** The marker an interrupted turn leaves (live, and when a session with one is resumed). */
export const INTERRUPTED_MARK = "interrupted by user";

export type InfoLevel = "info" | "success" | "warn" | "error";

/** `expand`: this one entry shown in full (ctrl+o on it), whatever the global setting. */
/** `viewCache`: the entry's lines fully expanded, for the ctrl+t view. */
/** An entry's height `n` for one layout, and its lines while it has been drawn lately (null once dropped). */
type Layout = { width: number; version: number; expanded: boolean; generation: number; tick: number; lines: string[] | null; n: number };
type Base = {
  version: number;
  cache?: Layout;
  viewCache?: { key: string; lines: string[] };
  expand?: boolean | undefined;
};
export type UserEntry = Base & { kind: "user"; text: string };
/** `md` keeps the settled Markdown blocks of a reply while it streams, so a delta re-renders only the tail. */
export type AssistantEntry = Base & { kind: "assistant"; text: string; open: boolean; md?: StreamingMarkdown | undefined };
export type ThinkingEntry = Base & { kind: "thinking"; text: string; open: boolean };
export type ToolEntry = Base & {
  kind: "tool";
  id: string;
  name: string;
  /** One line for the header. */
  args: string;
  /** The whole command (or the arguments as JSON) for the expanded header. */
  full: string;
  /** What a `write` changes, worked out before it ran: shown as a diff (or the new file) under its result. */
  change?: ApprovalDetail;
  extension?: string | undefined;
  /** The extensions whose interceptors rewrote the arguments shown (the model asked for others). */
  rewrittenBy?: string[];
  status: "running" | "ok" | "error";
  /** Waiting in the approval dialog: the header says so, and the clock starts when it is answered. */
  awaiting?: boolean;
  startedAt: number;
  durationMs?: number;
  output: string;
  /** Line breaks in `output`, counted as progress arrives so a long live output is never rescanned. */
  breaks: number;
  /** The output's rendered lines, kept apart from the header so the spinner's ticks do not re-render them. */
  body?: { key: string; lines: string[] } | undefined;
  /** A `task` call's subagents (and theirs), drawn as nested blocks instead of its progress lines. */
  subagents?: SubagentView[];
};
/**
 * A subagent as its last progress line left it. `since`: when it started, by this screen's clock;
 * `calls`: its tool calls so far, one line each; `depth`: 0 for the task call's own subagent.
 */
/** `awaiting`: its current call waits in the approval dialog. */
export type SubagentView = { status: SubagentStatus; since: number; calls: string[]; depth: number; awaiting?: boolean };
/** `tag` lets a group of lines be removed later (extension load errors). */
export type InfoEntry = Base & { kind: "info"; text: string; level: InfoLevel; tag?: string | undefined };
/** A rule across the chat with a label: where the history was condensed, where a turn was interrupted. */
export type MarkerEntry = Base & { kind: "marker"; text: string; level: InfoLevel };
export type Entry = UserEntry | AssistantEntry | ThinkingEntry | ToolEntry | InfoEntry | MarkerEntry;

export class ChatLog implements Scrollable {
  private entries: Entry[] = [];
  /** ctrl+o: show tool output and thinking in full. */
  expanded = false;
  version = 0;

  /** `clock` says what time it is for the frame being drawn (spinners, elapsed times). */
  constructor(
    private readonly theme: StyleRef,
    private readonly clock: () => number = Date.now,
  ) {}

  get list(): readonly Entry[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
    this.running.clear();
    this.tools.clear();
    this.kept.clear();
    this.keptLines = 0;
    this.restructured();
  }

  addUser(text: string): void {
    this.push({ kind: "user", text, version: 0 });
  }

  addMarker(text: string, level: InfoLevel = "info"): void {
    this.closeStreams();
    this.push({ kind: "marker", text, level, version: 0 });
  }

  addInfo(text: string, level: InfoLevel, tag?: string): void {
    this.push({ kind: "info", text, level, tag, version: 0 });
  }

  removeTagged(match: (tag: string) => boolean): void {
    const kept = this.entries.filter((e) => e.kind !== "info" || e.tag === undefined || !match(e.tag));
    if (kept.length === this.entries.length) return;
    const still = new Set(kept);
    for (const e of this.entries) if (!still.has(e)) this.forget(e);
    this.entries = kept;
    this.restructured();
  }

  appendAssistant(delta: string): void {
    const e = this.openEntry("assistant");
    e.text += delta;
    e.md?.append(delta);
    this.touch(e);
  }

  /**
   * A held delta (an assistant_message interceptor ran): the reply's text, released after the
   * model finished. The message's tool calls already have blocks (started while streaming); the
   * text goes above them, where it was in the reply.
   */
  appendHeld(delta: string): void {
    const at = this.stepStart();
    if (at === this.entries.length) return this.appendAssistant(delta);
    const prev = this.entries[at - 1];
    if (prev && prev.kind === "assistant" && prev.open) {
      prev.text += delta;
      prev.md?.append(delta);
      this.touch(prev);
      return;
    }
    this.entries.splice(at, 0, { kind: "assistant", text: delta, open: true, version: 0 });
    this.restructured();
  }

  /**
   * The final user-visible text (after interception) replaces what was streamed. The reply it
   * belongs to sits right above the message's tool calls, which are still running.
   */
  finishAssistant(text: string): void {
    const at = this.stepStart();
    const prev = this.entries[at - 1];
    let e: AssistantEntry;
    if (prev && prev.kind === "assistant") e = prev;
    else {
      e = { kind: "assistant", text: "", open: false, version: 0 };
      this.entries.splice(at, 0, e);
      this.restructured();
    }
    e.text = text;
    e.open = false;
    this.touch(e);
  }

  /** Where the current model message's trailing tool calls (not run yet) begin. */
  private stepStart(): number {
    let i = this.entries.length;
    while (i > 0) {
      const e = this.entries[i - 1]!;
      if (e.kind !== "tool" || e.status !== "running") break;
      i--;
    }
    return i;
  }

  /** Removes a reply still streaming (an interceptor hid it). */
  dropOpenAssistant(): void {
    const last = this.entries[this.entries.length - 1];
    if (last?.kind !== "assistant" || !last.open) return;
    this.forget(last);
    this.entries.pop();
    this.restructured();
  }

  appendThinking(delta: string): void {
    const e = this.openEntry("thinking");
    e.text += delta;
    this.touch(e);
  }

  /** Closes streamed entries so the next delta starts a new block. */
  closeStreams(): void {
    for (const e of this.entries.slice(-3)) {
      if ((e.kind === "assistant" || e.kind === "thinking") && e.open) {
        e.open = false;
        this.touch(e);
      }
    }
  }

  toolStart(id: string, name: string, now: number): void {
    this.closeStreams();
    if (this.tool(id)) return;
    this.push({ kind: "tool", id, name, args: "", full: "", status: "running", startedAt: now, output: "", breaks: 0, version: 0 });
  }

  toolCall(id: string, name: string, args: Json, extension: string | undefined, now: number, rewrittenBy?: string[]): void {
    this.toolStart(id, name, now);
    const e = this.tool(id)!;
    e.name = name;
    e.args = argsPreview(args);
    e.full = argsFull(args);
    e.extension = extension;
    if (rewrittenBy?.length) e.rewrittenBy = rewrittenBy;
    this.touch(e);
  }

  toolProgress(id: string, text: string): void {
    const e = this.tool(id);
    if (e?.status !== "running") return;
    e.output += text;
    e.breaks += countBreaks(text);
    this.touch(e);
  }

  toolResult(id: string, name: string, content: ContentBlock[], isError: boolean, durationMs: number, extension: string | undefined, now: number): void {
    this.toolStart(id, name, now);
    const e = this.tool(id)!;
    e.status = isError ? "error" : "ok";
    e.durationMs = durationMs;
    if (extension) e.extension = extension;
    // A lone text block is used as it is: a resumed session's outputs are not copied.
    const only = content.length === 1 ? content[0] : undefined;
    e.output = only?.type === "text" ? only.text : content.map((b) => (b.type === "text" ? b.text : `[image ${b.mime_type}]`)).join("\n");
    e.breaks = countBreaks(e.output);
    this.touch(e);
  }

  /**
   * A subagent's state from a `task` call's progress: `callId` is the main agent's call, or, when
   * `owner` names a subagent, that subagent's own call; its block goes under the owner's.
   */
  subagentProgress(callId: string, owner: string | null, status: SubagentStatus, now: number): void {
    const e = owner === null ? this.tool(callId) : this.holding(owner)?.entry;
    if (e?.status !== "running") return;
    const list = (e.subagents ??= []);
    let view = list.find((v) => v.status.agent.id === status.agent.id);
    if (!view) {
      const at = list.findIndex((v) => v.status.agent.id === owner);
      view = { status, since: now - status.duration_ms, calls: [], depth: at < 0 ? 0 : list[at]!.depth + 1 };
      // Under its parent, after the parent's other children.
      let end = at < 0 ? list.length : at + 1;
      while (at >= 0 && end < list.length && list[end]!.depth > list[at]!.depth) end++;
      list.splice(end, 0, view);
    }
    view.status = status;
    // The lines of a start and of the end carry no new call.
    if (status.state === "running" && status.tool) view.calls.push(`${status.tool.name} ${argsPreview(status.tool.args)}`);
    this.touch(e);
  }

  /** A subagent's model call used `tokens`: its block counts them at once, before its next progress line says so. */
  subagentUsage(agent: string, tokens: number): void {
    const held = this.holding(agent);
    if (!held) return;
    held.view.status = { ...held.view.status, tokens: held.view.status.tokens + tokens };
    this.touch(held.entry);
  }

  /** A subagent's call waits in the approval dialog (or no longer does). */
  subagentAwaiting(agent: string, waiting: boolean): void {
    const held = this.holding(agent);
    if (!held) return;
    held.view.awaiting = waiting;
    this.touch(held.entry);
  }

  /** The running task call whose blocks show the subagent `agent`. */
  private holding(agent: string): { entry: ToolEntry; view: SubagentView } | undefined {
    for (const entry of this.running) {
      const view = entry.subagents?.find((v) => v.status.agent.id === agent);
      if (view) return { entry, view };
    }
    return undefined;
  }

  awaitApproval(id: string, waiting: boolean, now: number): void {
    const e = this.tool(id);
    if (!e) return;
    e.awaiting = waiting;
    e.startedAt = now;
    this.touch(e);
  }

  setChange(id: string, change: ApprovalDetail): void {
    const e = this.tool(id);
    if (!e) return;
    e.change = change;
    this.touch(e);
  }

  /** Running tools left behind by an aborted turn are marked as failed. */
  abortRunning(now: number): void {
    for (const e of this.entries) {
      if (e.kind === "tool" && e.status === "running") {
        e.status = "error";
        e.durationMs = now - e.startedAt;
        e.output += e.output ? "\n[cancelled]" : "[cancelled]";
        e.breaks = countBreaks(e.output);
        for (const v of e.subagents ?? []) if (v.status.state === "running") v.status = { ...v.status, state: "cancelled", duration_ms: now - v.since };
        this.touch(e);
      }
    }
    this.closeStreams();
  }

  get hasRunningTool(): boolean {
    return this.running.size > 0;
  }

  toggleExpanded(): void {
    this.expanded = !this.expanded;
    for (const e of this.entries) e.expand = undefined;
    this.restructured();
  }

  /** Whether anything of a reply (text, thinking, a tool call) came after the newest prompt. */
  answeredSincePrompt(): boolean {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.kind === "user") return false;
      if (e.kind === "tool" || ((e.kind === "assistant" || e.kind === "thinking") && e.text.trim() !== "")) return true;
    }
    return false;
  }

  /** The user prompts in the chat, oldest first (what /jump lists). */
  userTexts(): string[] {
    return this.entries.flatMap((e) => (e.kind === "user" ? [e.text] : []));
  }

  /** Lines from the top of the `n`-th user prompt (0-based) to the bottom of the chat; null when there is none. */
  linesFromUser(n: number, width: number): number | null {
    const want = this.userTexts().length - 1 - n;
    let seen = -1;
    let below = 0;
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      const k = this.heightOf(e, width);
      if (k > 0) below += k + 1;
      if (e.kind !== "user") continue;
      seen++;
      if (seen === want) return Math.max(0, below - 1);
    }
    return null;
  }

  /**
   * Expands or collapses one block: the newest collapsible entry (tool call, thinking, prompt) with
   * a line in the window `height` lines high ending `offset` lines above the bottom. False when none is.
   */
  toggleVisible(width: number, height: number, offset: number): boolean {
    let below = 0;
    for (let i = this.entries.length - 1; i >= 0 && below < offset + height; i--) {
      const e = this.entries[i]!;
      const n = this.heightOf(e, width);
      if (n === 0) continue;
      if (below + n > offset && (e.kind === "tool" || e.kind === "thinking" || e.kind === "user")) {
        e.expand = !(e.expand ?? this.expanded);
        this.touch(e);
        return true;
      }
      below += n + 1;
    }
    return false;
  }

  /** Every line of every entry, fully expanded (the ctrl+t transcript view). */
  allLines(width: number): string[] {
    const style = this.theme.style;
    const now = this.clock();
    const out: string[] = [];
    for (const e of this.entries) {
      const key = `${width}|${e.version}|${this.generation}`;
      if (e.viewCache?.key !== key) e.viewCache = { key, lines: renderEntry(e, width, style, true, now) };
      const lines = e.viewCache.lines;
      if (lines.length === 0) continue;
      if (out.length > 0) out.push("");
      out.push(...lines);
    }
    return out;
  }

  /** Every entry's lines, separated by blank lines, as the chat shows them. */
  render(width: number): string[] {
    return this.window(width, this.lineCount(width), 0);
  }

  /**
   * Every entry's lines, separated by blank lines, measured without building the full array: a
   * count of the whole history (scrolling to its top), which renders every entry not counted yet.
   */
  lineCount(width: number): number {
    return this.reach(width, Number.POSITIVE_INFINITY);
  }

  /**
   * The lines of the newest entries, counted back from the bottom until there are `lines` of them
   * or every entry is counted: the lines of the whole chat when fewer. A frame pays for what
   * changed and for how far back its view reaches, never for the whole history unless it is
   * scrolled to its top (a resumed session of thousands of messages is not rendered in full to
   * be shown from its end).
   */
  reach(width: number, lines: number): number {
    this.countBack(width, lines);
    return this.counted.index.total;
  }

  /**
   * A running sum of the lines the counted entries gained and lost since the chat was made:
   * counting further back does not change it, so a view scrolled back can keep its lines in place
   * while the chat below them grows.
   */
  grown(width: number): number {
    this.countBack(width, 0);
    return this.growth;
  }

  /** Counts new and changed entries, then older ones back from the bottom until `lines` are counted or the entry at `downTo` is. */
  private countBack(width: number, lines: number, downTo = 0): void {
    const layout = `${width}|${this.expanded}|${this.generation}`;
    let c = this.counted;
    const n = this.entries.length;
    // A history laid into the chat at once (a resume) is counted from its end as the view needs.
    if (layout !== c.layout || c.whole || n - c.high > BULK_ENTRIES) {
      c = this.counted = { layout, whole: false, low: n, high: n, at: new WeakMap(), index: new HeightIndex(n) };
      this.changed.clear();
    }
    // New entries at the bottom: they are what a frame there draws.
    while (c.high < n) {
      const at = c.high++;
      this.growth += this.count(this.entries[at]!, width, at);
    }
    // Counting an entry again only corrects its share; an entry not counted yet is left to the walk back.
    for (const e of this.changed) this.growth += this.recount(e, width);
    // A running tool's block is drawn from the clock too (spinner, elapsed time), not only when touched.
    for (const e of this.running) this.growth += this.recount(e, width);
    this.changed.clear();
    while (c.low > downTo && c.index.total < lines) {
      const at = --c.low;
      this.count(this.entries[at]!, width, at);
    }
  }

  /**
   * A counted entry's share brought up to date, and the lines that moves the last frame's view by:
   * none for an entry wholly above that view, whose change leaves the lines in view and below them
   * where they were.
   */
  private recount(e: Entry, width: number): number {
    const change = this.count(e, width);
    const i = this.counted.at.get(e);
    return i !== undefined && i < this.viewTop ? 0 : change;
  }

  /** Brings the share of the entry at `at`, or of one counted before, up to date: its lines plus a separator (none when it shows nothing). The share's change. */
  private count(e: Entry, width: number, at?: number): number {
    const c = this.counted;
    const i = at ?? c.at.get(e);
    if (i === undefined) return 0;
    c.at.set(e, i);
    const k = this.heightOf(e, width);
    const share = k > 0 ? k + 1 : 0;
    const before = c.index.share(i);
    c.index.set(i, share);
    return share - before;
  }

  /**
   * The entries at positions `low` … `high` - 1 are counted (the newest ones: the count goes back
   * from the bottom) and kept up to date; `at`: their positions (they change only when entries are
   * inserted or removed, which starts the count over). `index`: the shares by position, 0 for
   * those not counted.
   */
  private counted: { layout: string; whole: boolean; low: number; high: number; at: WeakMap<Entry, number>; index: HeightIndex } = {
    layout: "",
    whole: true,
    low: 0,
    high: 0,
    at: new WeakMap(),
    index: new HeightIndex(),
  };
  private growth = 0;
  /** The position of the entry the last window's top line is in, when it was scrolled back; else -1. */
  private viewTop = -1;
  /**
   * The last window scrolled back, by its bottom line: the entry it is in, how many of that
   * entry's `height` lines were below it, under which layout (`keptOffset`).
   */
  private anchor: { entry: Entry; below: number; height: number; layout: string } | null = null;
  /** Entries added or touched since the last count. */
  private changed = new Set<Entry>();
  /** The tool blocks still running, so a frame need not look for them in the whole history. */
  private readonly running = new Set<ToolEntry>();
  /**
   * The tool entries by call id, the latest of each: every tool event finds its block here, where
   * a walk of the chat from its end made a resumed history's replay quadratic (a new call's id was
   * looked for through every entry).
   */
  private readonly tools = new Map<string, ToolEntry>();

  /**
   * The `height` lines ending `offset` lines above the bottom. Walks entries from the end, so the
   * cost follows the scroll position, not the transcript length; entries below the window count
   * only their height, so their lines need not be kept.
   */
  window(width: number, height: number, offset: number): string[] {
    this.frame++;
    const need = height + offset;
    const chunks: string[][] = [];
    // Lines under the collected entries (whole entries below the window, with their separators).
    let skipped = 0;
    let have = 0;
    let from = this.entries.length - 1;
    // Scrolled up, the entries wholly below the window are found from their shares instead (those
    // of the last k entries sum to their lines plus k separators, one more than the walk counts
    // for them: the newest has none below it). The count reaches past the window's top, or to the
    // oldest entry; the entries not counted have no share, so the sums of the counted ones hold.
    if (offset > 0) {
      const total = this.reach(width, need + 1);
      const { index } = this.counted;
      const first = index.reach(total - offset - 1);
      const below = total - index.prefix(first);
      from = first - 1;
      skipped = have = below > 0 ? below - 1 : 0;
    }
    let top = -1;
    this.anchor = null;
    for (let i = from; i >= 0 && have < need; i--) {
      const e = this.entries[i]!;
      const n = this.heightOf(e, width, true);
      if (n === 0) continue;
      top = i;
      // Every entry but the newest has a separator below it.
      const sep = have > 0 ? 1 : 0;
      if (chunks.length === 0 && have + n + sep <= offset) {
        skipped += n + sep;
        if (!this.kept.has(e)) this.drop(e);
      } else {
        if (chunks.length === 0 && offset > 0) this.anchor = { entry: e, below: Math.max(0, offset - have - sep), height: n, layout: this.counted.layout };
        if (sep) chunks.push([""]);
        chunks.push(this.linesOf(e, width));
      }
      have += n + sep;
    }
    // Only the lines the window can reach are copied (the newest entry may be a long reply).
    let room = need - skipped;
    for (let i = 0; i < chunks.length && room > 0; i++) {
      const lines = chunks[i]!;
      if (lines.length > room) chunks[i] = lines.slice(lines.length - room);
      room -= chunks[i]!.length;
      if (room <= 0) chunks.length = i + 1;
    }
    this.viewTop = offset > 0 ? top : -1;
    const all: string[] = [];
    for (let i = chunks.length - 1; i >= 0; i--) all.push(...chunks[i]!);
    this.evict();
    const end = Math.max(0, all.length - (offset - skipped));
    return all.slice(Math.max(0, end - height), end);
  }

  /**
   * After the chat was laid out anew while scrolled back (a resize, a theme, ctrl+o): the offset
   * that brings the last window's bottom line back to the bottom of the view, the same share of
   * its entry's lines below it; null when the layout is the one that window had, or it was not
   * scrolled back. Counts back as far as that entry, which is as far as the view reaches.
   */
  keptOffset(width: number): number | null {
    const a = this.anchor;
    if (!a) return null;
    this.countBack(width, 0);
    if (this.counted.layout === a.layout) return null;
    this.anchor = null;
    const i = this.entries.lastIndexOf(a.entry);
    if (i < 0) return null;
    this.countBack(width, Number.POSITIVE_INFINITY, i);
    const c = this.counted;
    const n = this.heightOf(a.entry, width);
    const within = n === 0 ? 0 : Math.min(n - 1, Math.round((a.below * n) / a.height));
    return c.index.total - c.index.prefix(i + 1) + within;
  }

  /** The spinner's frame for a running tool (drawn from the clock), else -1. */
  private tick(e: Entry): number {
    return e.kind === "tool" && e.status === "running" ? Math.floor(this.clock() / 80) : -1;
  }

  /** Whether the entry's cached height is for this layout (compared field by field: a walk far back checks thousands). */
  private fresh(e: Entry, width: number): e is Entry & { cache: Layout } {
    const c = e.cache;
    return (
      c !== undefined &&
      c.width === width &&
      c.version === e.version &&
      c.expanded === (e.expand ?? this.expanded) &&
      c.generation === this.generation &&
      c.tick === this.tick(e)
    );
  }

  private renderCached(e: Entry, width: number, keepLines: boolean): string[] {
    const expanded = e.expand ?? this.expanded;
    const lines = renderEntry(e, width, this.theme.style, expanded, this.clock(), `${width}|${e.version}|${expanded}|${this.generation}`);
    e.cache = { width, version: e.version, expanded, generation: this.generation, tick: this.tick(e), lines: keepLines ? lines : null, n: lines.length };
    return lines;
  }

  /**
   * The entry's height in lines. Its lines stay cached only if it was drawn lately (counting a
   * whole resumed history must not keep them all); `hold`: keep the lines just rendered until the
   * caller says whether it draws them (the window).
   */
  private heightOf(e: Entry, width: number, hold = false): number {
    if (this.fresh(e, width)) return e.cache.n;
    const kept = this.kept.get(e);
    const n = this.renderCached(e, width, kept !== undefined || hold).length;
    if (kept) {
      this.keptLines += n - kept.n;
      kept.n = n;
    } else if (!hold) this.drop(e);
    return n;
  }

  private linesOf(e: Entry, width: number): string[] {
    const lines = (this.fresh(e, width) ? e.cache.lines : null) ?? this.renderCached(e, width, true);
    this.keep(e, lines.length);
    return lines;
  }

  /** Marks the entry's lines as drawn in this frame: the newest drawn are the last to be dropped. */
  private keep(e: Entry, n: number): void {
    const had = this.kept.get(e);
    if (had) {
      this.keptLines -= had.n;
      this.kept.delete(e);
    }
    this.kept.set(e, { n, frame: this.frame });
    this.keptLines += n;
  }

  /** Drops the lines of the entries drawn longest ago beyond KEPT_LINES (never this frame's); scrolled back to, they render again. */
  private evict(): void {
    for (const [e, k] of this.kept) {
      if (this.keptLines <= KEPT_LINES || k.frame === this.frame) return;
      this.forget(e);
    }
  }

  private forget(e: Entry): void {
    const k = this.kept.get(e);
    if (!k) return;
    this.kept.delete(e);
    this.keptLines -= k.n;
    this.drop(e);
  }

  /** Lets go of the entry's rendered lines; its height stays. */
  private drop(e: Entry): void {
    if (e.cache) e.cache.lines = null;
    if (e.kind === "tool") e.body = undefined;
  }

  /** Entries whose lines are cached, oldest drawn first, with how many lines and the frame they were last drawn in. */
  private readonly kept = new Map<Entry, { n: number; frame: number }>();
  private keptLines = 0;
  private frame = 0;

  /** Drops every cached rendering (the theme changed). */
  invalidate(): void {
    this.generation++;
    this.version++;
  }

  private generation = 0;

  private push(e: Entry): void {
    this.entries.push(e);
    this.changed.add(e);
    this.version++;
    if (e.kind === "tool") this.tools.set(e.id, e);
    if (e.kind === "tool" && e.status === "running") this.running.add(e);
  }

  private touch(e: Entry): void {
    e.version++;
    this.changed.add(e);
    this.version++;
    if (e.kind === "tool" && e.status !== "running") this.running.delete(e);
  }

  /** Entries were inserted, removed or re-laid out in bulk: the next count starts over. */
  private restructured(): void {
    this.counted.whole = true;
    this.changed.clear();
    this.version++;
  }

  private openEntry<K extends "assistant" | "thinking">(kind: K): Extract<Entry, { kind: K }> {
    const last = this.entries[this.entries.length - 1];
    if (last && last.kind === kind && last.open) return last as Extract<Entry, { kind: K }>;
    if (last && (last.kind === "assistant" || last.kind === "thinking") && last.open) {
      last.open = false;
      this.touch(last);
    }
    const e = { kind, text: "", open: true, version: 0 } as Extract<Entry, { kind: K }>;
    this.push(e);
    return e;
  }

  private tool(id: string): ToolEntry | undefined {
    return this.tools.get(id);
  }
}

const INFO_ROLE = { info: "muted", success: "success", warn: "warning", error: "error" } as const;

/** `bodyKey` identifies everything a tool's output rendering depends on, so it can be reused across spinner ticks. */
export function renderEntry(e: Entry, width: number, style: Style, expanded: boolean, now: number, bodyKey?: string): string[] {
  const w = Math.max(4, width);
  switch (e.kind) {
    case "user": {
      const out: string[] = [];
      for (const [i, line] of sanitize(e.text).split("\n").entries()) {
        for (const [j, part] of wrap(line, w - 2).entries()) out.push(style.fg("user", (i === 0 && j === 0 ? "› " : "  ") + part));
      }
      // A pasted log or file would bury the conversation; its head is enough to recognise it.
      if (expanded || out.length <= COLLAPSED_USER_LINES + 2) return out;
      const hidden = out.length - COLLAPSED_USER_LINES;
      return [...out.slice(0, COLLAPSED_USER_LINES), style.dim(`  … ${hidden} more lines (ctrl+o to expand)`)];
    }
    case "assistant": {
      // While it streams the text is never read whole (each read would copy it): the renderer
      // was given every delta, and text of only blanks renders no lines anyway.
      if (e.open) {
        if (!e.md) {
          e.md = new StreamingMarkdown(sanitize);
          e.md.append(e.text);
        }
        return e.md.render(w, style);
      }
      e.md = undefined;
      if (e.text.trim() === "") return [];
      return renderMarkdown(sanitize(e.text), w, style);
    }
    case "thinking": {
      const text = sanitize(e.text).trim();
      if (text === "") return [];
      const count = text.split("\n").length;
      if (!expanded) return [style.dim(style.italic(`∴ thinking${e.open ? "…" : ""} (${count} line${count === 1 ? "" : "s"}, ctrl+o to expand)`))];
      const out = [style.dim(style.italic("∴ thinking"))];
      for (const line of text.split("\n")) for (const part of wrap(line, w - 2)) out.push(style.dim(style.italic("  " + part)));
      return out;
    }
    case "info": {
      const out: string[] = [];
      for (const [i, line] of sanitize(e.text).split("\n").entries()) {
        for (const [j, part] of wrap(line, w - 2).entries()) out.push(style.fg(INFO_ROLE[e.level], (i === 0 && j === 0 ? "● " : "  ") + part));
      }
      return out;
    }
    case "tool":
      return renderTool(e, w, style, expanded, now, bodyKey);
    case "marker": {
      const label = ` ${sanitize(e.text)} `;
      const side = Math.max(2, Math.floor((w - label.length) / 2));
      return wrap("─".repeat(side) + label + "─".repeat(Math.max(2, w - side - label.length)), w).map((l) => style.fg(INFO_ROLE[e.level], l));
    }
  }
}

function renderTool(e: ToolEntry, width: number, style: Style, expanded: boolean, now: number, bodyKey: string | undefined): string[] {
  const mark = e.status === "running" ? style.fg("accent", spinnerFrame(now)) : e.status === "ok" ? style.fg("success", "✓") : style.fg("error", "✗");
  const owner = e.extension ? ` [${sanitize(e.extension)}]` : "";
  // Replayed calls have no recorded duration (0); show none rather than a made-up one.
  const ms = e.status === "running" ? now - e.startedAt : e.durationMs;
  const tail = e.status === "running" && e.awaiting ? " waiting for approval" : ms ? ` ${formatDuration(ms)}` : "";
  const name = style.bold(style.fg("tool", sanitize(e.name))) + style.fg("muted", owner);
  const room = Math.max(0, width - 2 - sanitize(e.name).length - owner.length - tail.length - 2);
  const args = e.args && room > 3 ? " " + style.fg("muted", truncate(e.args, room)) : "";
  const header = `${mark} ${name}${args}${style.fg("muted", tail)}`;
  const header1 = truncate(header, width);
  if (bodyKey === undefined || e.body?.key !== bodyKey) e.body = { key: bodyKey ?? "", lines: toolBody(e, width, style, expanded) };
  // A task call's progress lines say what its subagents' blocks show; its result still shows under them.
  const agents = e.subagents ? e.subagents.flatMap((v) => renderSubagent(v, width, style, expanded, now, e.status === "running")) : [];
  const body = e.subagents && e.status === "running" ? [] : e.body.lines;
  // Expanded, the header is followed by the whole command (every line, nothing cut) when the one-line form hid some of it.
  const full = sanitize(e.full);
  const shows = expanded && full !== "" && (full.includes("\n") || visibleWidth(e.args) > room);
  const command = shows
    ? full.split("\n").flatMap((l, i) => wrap(l, width - 4).map((part, j) => style.fg("muted", (i === 0 && j === 0 ? "  $ " : "    ") + part)))
    : [];
  return [header1, ...rewriteLine(e, width, style), ...command, ...agents, ...body];
}

/**
 * One subagent's block: a line with its id, description, clock and tokens; while it runs, the call
 * it made last under it; expanded, every call it made. `live`: its task call still runs (a
 * cancelled turn leaves none running).
 */
export function renderSubagent(v: SubagentView, width: number, style: Style, expanded: boolean, now: number, live: boolean): string[] {
  const s = v.status;
  const running = s.state === "running" && live;
  const indent = "  ".repeat(v.depth + 1);
  const mark = running ? style.fg("accent", spinnerFrame(now)) : s.state === "done" ? style.fg("success", "✓") : style.fg("error", "✗");
  const calls = v.calls.length;
  const count = running ? "" : ` · ${calls} call${calls === 1 ? "" : "s"}`;
  const ended = s.state === "failed" || s.state === "cancelled" ? ` · ${s.state}` : "";
  const tail = ` · ${formatDuration(running ? now - v.since : s.duration_ms)} · ${formatCount(s.tokens)} tokens${count}${ended}`;
  const id = sanitize(s.agent.id);
  // The clock and tokens matter most while it runs: the description gives way first.
  const room = width - indent.length - 2 - visibleWidth(id) - 3 - visibleWidth(tail);
  const description = room > 3 ? ` · ${truncate(sanitize(s.description), room).replace(/ +…$/, "…")}` : "";
  const out = [truncate(`${indent}${mark} ${style.bold(id)}${style.fg("muted", description + tail)}`, width)];
  const shown = expanded ? v.calls : running ? v.calls.slice(-1) : [];
  const waiting = running && v.awaiting ? "waiting for approval: " : "";
  for (const [i, call] of shown.entries())
    out.push(truncate(style.fg("muted", `${indent}  → ${i === shown.length - 1 ? waiting : ""}${sanitize(call)}`), width));
  if (running && calls === 0) out.push(style.dim(`${indent}  → starting…`));
  return out;
}

/** Whoever changed the arguments is named under the header, so a rewritten command never passes for the model's. */
export function rewriteLine(e: { rewrittenBy?: string[] }, width: number, style: Style): string[] {
  if (!e.rewrittenBy?.length) return [];
  return [truncate(style.fg("warning", `  ⚠ arguments rewritten by extension ${e.rewrittenBy.map(sanitize).join(", ")} (the model asked for others)`), width)];
}

/** Tools whose output ends with what matters (build and test results): collapsed, they keep the tail. */
const TAIL_TOOLS: ReadonlySet<string> = new Set(["bash", "!"]);

function toolBody(e: ToolEntry, width: number, style: Style, expanded: boolean): string[] {
  // While running, the newest output matters, and a chatty command can have produced megabytes:
  // only the last lines are looked at. Once done, a command's tail reads as the answer, other tools' head.
  const fromEnd = e.status === "running" || TAIL_TOOLS.has(e.name);
  const src = fromEnd && !expanded ? tail(e.output, e.breaks, COLLAPSED_TOOL_LINES) : { text: e.output, skipped: 0 };
  const body = sanitize(src.text).replace(/\n+$/, "");
  if (body === "") return [];
  const role = e.status === "error" ? "error" : "muted";
  const diffAt = e.name === "edit" && e.status === "ok" ? body.indexOf("\n--- ") : -1;
  const change = e.name === "write" && e.status === "ok" ? e.change : undefined;
  const lines: string[] = [];
  if (change && (change.kind === "diff" || change.kind === "content")) {
    for (const line of body.split("\n")) lines.push(...wrap(line, width - 4).map((l) => style.fg(role, l)));
    lines.push(...(change.kind === "diff" ? renderDiff(change.diff, width - 4, style) : renderNumbered(change.content, width - 4, style)));
  } else if (diffAt >= 0) {
    for (const line of body.slice(0, diffAt).replace(/\n+$/, "").split("\n")) lines.push(...wrap(line, width - 4).map((l) => style.fg(role, l)));
    lines.push(...renderDiff(body.slice(diffAt + 1), width - 4, style));
  } else for (const line of body.split("\n")) lines.push(...wrap(line, width - 4).map((l) => style.fg(role, l)));
  const limit = expanded ? lines.length : COLLAPSED_TOOL_LINES;
  const shown = fromEnd ? lines.slice(-limit) : lines.slice(0, limit);
  const hidden = lines.length - shown.length + src.skipped;
  const out: string[] = [];
  const more = `${hidden} ${fromEnd ? "earlier" : "more"} line${hidden === 1 ? "" : "s"}${e.status === "running" ? "" : " (ctrl+o to expand)"}`;
  if (hidden > 0 && fromEnd) out.push(style.dim(`  │ … ${more}`));
  for (const line of shown) out.push(style.fg(role, "  │ ") + line);
  if (hidden > 0 && !fromEnd) out.push(style.dim(`  │ … ${more}`));
  return out;
}

/** The last `n` lines of `text` (which has `breaks` line breaks), and how many lines come before them. */
function tail(text: string, breaks: number, n: number): { text: string; skipped: number } {
  let end = text.length;
  let trailing = 0;
  while (end > 0 && text.charCodeAt(end - 1) === 10) {
    end--;
    trailing++;
  }
  let start = end;
  let kept = 0;
  while (kept < n) {
    const nl = text.lastIndexOf("\n", start - 1);
    if (nl < 0) return { text: text.slice(0, end), skipped: 0 };
    start = nl;
    kept++;
  }
  // `start` is the break before the kept lines; the lines before it are those breaks' lines.
  return { text: text.slice(start + 1, end), skipped: breaks - trailing - kept + 1 };
}

function countBreaks(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

/** One line saying what a tool call is about: the command or path when there is one, else the JSON. */
export function argsPreview(args: Json): string {
  if (args && typeof args === "object" && !Array.isArray(args)) {
    // A task call: who does it and what it is; the whole prompt is in the expanded view.
    if (typeof args.prompt === "string" && typeof args.description === "string")
      return oneLine(`${typeof args.agent === "string" ? args.agent : "general"}: ${args.description}`);
    for (const key of ["command", "path", "file_path", "pattern", "query", "url", "name"]) {
      const v = args[key];
      if (typeof v === "string") return oneLine(v);
    }
  }
  return oneLine(JSON.stringify(args) ?? "");
}

/** The command in full, else the arguments as indented JSON when the one-line preview shows only part of them. */
function argsFull(args: Json): string {
  if (args && typeof args === "object" && !Array.isArray(args)) {
    const v = args.command;
    if (typeof v === "string") return v.replace(/\n$/, "");
    if (Object.keys(args).length <= 1) return "";
  }
  return JSON.stringify(args, null, 2) ?? "";
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, " ⏎ ").trim();
}
