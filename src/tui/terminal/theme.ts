// Themes: role → colour maps, colour-mode detection, the Style that turns roles into SGR, and which
// theme the TUI starts with (a saved choice, else dark until the terminal's background says light).
import { isDumbTerminal } from "../../platform/terminal.ts";
import type { Env } from "../../platform/env.ts";
import { isColor } from "../../ext/install/theme-file.ts";
import { hyperlink } from "./ansi.ts";
import { THEME_ROLES, type ThemeRole } from "../../ext/types.ts";

export type Color = string | number;
export type ThemeColors = Record<ThemeRole, Color>;
export type ColorMode = "none" | "256" | "truecolor";

export const dark: ThemeColors = {
  text: "#d4d4d4",
  muted: "#808080",
  accent: "#61afef",
  user: "#c678dd",
  assistant: "#d4d4d4",
  thinking: "#7f848e",
  tool: "#56b6c2",
  success: "#98c379",
  warning: "#e5c07b",
  error: "#e06c75",
  border: "#4b5263",
  panel_title: "#61afef",
  panel_border: "#5c6370",
  status: "#abb2bf",
  selection: "#3e4451",
  code: "#e5c07b",
};

export const light: ThemeColors = {
  text: "#24292f",
  muted: "#6e7781",
  accent: "#0969da",
  user: "#8250df",
  assistant: "#24292f",
  thinking: "#6e7781",
  tool: "#1b7c83",
  success: "#1a7f37",
  warning: "#9a6700",
  error: "#cf222e",
  border: "#d0d7de",
  panel_title: "#0969da",
  panel_border: "#8c959f",
  status: "#57606a",
  selection: "#ddf4ff",
  code: "#953800",
};

const BUILTIN_THEMES: Readonly<Record<string, ThemeColors>> = { dark, light };

/** NO_COLOR or TERM=dumb → none; COLORTERM truecolor/24bit → truecolor; anything else 256 colours. */
export function detectColorMode(env: Env): ColorMode {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return "none";
  if (isDumbTerminal(env)) return "none";
  const ct = (env.COLORTERM ?? "").toLowerCase();
  if (ct === "truecolor" || ct === "24bit") return "truecolor";
  return "256";
}

/**
 * Terminals known to draw OSC 8 links; elsewhere (and inside tmux or screen, which may not pass them
 * on) the URL is printed after the text. FORCE_HYPERLINK=1 / 0 overrides the guess.
 */
export function hyperlinksSupported(env: Env): boolean {
  const forced = env.FORCE_HYPERLINK;
  if (forced !== undefined && forced !== "") return forced !== "0";
  if (isDumbTerminal(env) || env.TMUX || env.STY) return false;
  const program = env.TERM_PROGRAM ?? "";
  if (["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper"].includes(program)) return true;
  if (env.WT_SESSION || env.KITTY_WINDOW_ID || env.KONSOLE_VERSION) return true;
  if (/kitty|foot|alacritty|ghostty|wezterm/.test(env.TERM ?? "")) return true;
  return Number(env.VTE_VERSION ?? 0) >= 5000;
}

/** Bold, dim, inverse and friends work everywhere except on a dumb terminal. */
export function attributesSupported(env: Env): boolean {
  return !isDumbTerminal(env);
}

const CUBE = [0, 95, 135, 175, 215, 255];

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function nearestCube(v: number): number {
  let best = 0;
  for (let i = 1; i < CUBE.length; i++) if (Math.abs(CUBE[i]! - v) < Math.abs(CUBE[best]! - v)) best = i;
  return best;
}

/** The xterm-256 palette index closest to `#rrggbb`: the 6×6×6 cube or the 24-step grey ramp. */
export function toXterm256(hex: string): number {
  const [r, g, b] = rgb(hex);
  const [ri, gi, bi] = [nearestCube(r), nearestCube(g), nearestCube(b)];
  const cubeDist = (CUBE[ri]! - r) ** 2 + (CUBE[gi]! - g) ** 2 + (CUBE[bi]! - b) ** 2;
  const avg = (r + g + b) / 3;
  const gi2 = Math.max(0, Math.min(23, Math.round((avg - 8) / 10)));
  const grey = 8 + gi2 * 10;
  const greyDist = (grey - r) ** 2 + (grey - g) ** 2 + (grey - b) ** 2;
  return greyDist < cubeDist ? 232 + gi2 : 16 + 36 * ri + 6 * gi + bi;
}

/** SGR parameters for a colour as foreground (`base` 38) or background (48) in a mode. */
function colorParams(color: Color, mode: ColorMode, base: 38 | 48): string {
  if (typeof color === "number") return `${base};5;${color}`;
  if (mode === "truecolor") {
    const [r, g, b] = rgb(color);
    return `${base};2;${r};${g};${b}`;
  }
  return `${base};5;${toXterm256(color)}`;
}

export interface Style {
  readonly mode: ColorMode;
  readonly colors: ThemeColors;
  fg(role: ThemeRole, text: string): string;
  bg(role: ThemeRole, text: string): string;
  bold(text: string): string;
  dim(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  inverse(text: string): string;
  strike(text: string): string;
  /** The text as a clickable link (OSC 8) where the terminal supports it; null where it does not. */
  link: ((url: string, text: string) => string) | null;
}

/** Wraps text in open/close codes; a close inside (from nested styling) re-opens the outer style. */
function wrapper(open: string, close: string): (text: string) => string {
  return (text) => (text === "" ? "" : open + (text.includes(close) ? text.split(close).join(close + open) : text) + close);
}

const same = (text: string) => text;

/**
 * A Style for a theme. In mode "none" colours are dropped but attributes stay; with
 * `attributes` false (TERM=dumb) every method returns the text unchanged.
 */
export function createStyle(colors: ThemeColors, mode: ColorMode, attributes = true, hyperlinks = false): Style {
  const fgs = new Map<ThemeRole, (t: string) => string>();
  const bgs = new Map<ThemeRole, (t: string) => string>();
  for (const role of THEME_ROLES) {
    if (mode === "none") {
      fgs.set(role, same);
      bgs.set(role, same);
    } else {
      fgs.set(role, wrapper(`\x1b[${colorParams(colors[role], mode, 38)}m`, "\x1b[39m"));
      bgs.set(role, wrapper(`\x1b[${colorParams(colors[role], mode, 48)}m`, "\x1b[49m"));
    }
  }
  const attr = (open: number, close: number) => (attributes ? wrapper(`\x1b[${open}m`, `\x1b[${close}m`) : same);
  return {
    mode,
    colors,
    fg: (role, text) => fgs.get(role)!(text),
    bg: (role, text) => bgs.get(role)!(text),
    bold: attr(1, 22),
    dim: attr(2, 22),
    italic: attr(3, 23),
    underline: attr(4, 24),
    inverse: attr(7, 27),
    strike: attr(9, 29),
    link: hyperlinks ? (url, text) => hyperlink(url, text) : null,
  };
}

export type NamedTheme = { name: string; colors: Partial<Record<string, unknown>> };

/** Built-in theme names first, then extension themes not shadowing them, in the given order. */
export function themeNames(extensionThemes: readonly NamedTheme[]): string[] {
  const names = Object.keys(BUILTIN_THEMES);
  for (const t of extensionThemes) if (!names.includes(t.name)) names.push(t.name);
  return names;
}

/** The theme called `name`, or null if neither built in nor offered by an extension. */
export function findTheme(name: string, extensionThemes: readonly NamedTheme[]): ThemeColors | null {
  const builtin = BUILTIN_THEMES[name];
  if (builtin) return builtin;
  const ext = extensionThemes.find((t) => t.name === name);
  if (!ext) return null;
  const colors: ThemeColors = { ...dark };
  for (const role of THEME_ROLES) {
    const c = ext.colors[role];
    if (isColor(c)) colors[role] = c;
  }
  return colors;
}

/** Colours of theme `name`; unknown names give `dark`, and roles an extension theme omits come from `dark`. */
export function resolveTheme(name: string, extensionThemes: readonly NamedTheme[]): ThemeColors {
  return findTheme(name, extensionThemes) ?? dark;
}

/** Which theme the TUI starts with: a saved choice in config.json wins; otherwise dark until the terminal's background says light. */
export type ThemeChoice = { name: string; saved: boolean; warning?: string };

export function savedTheme(wanted: string | undefined, themes: readonly NamedTheme[]): ThemeChoice {
  if (wanted === undefined) return { name: "dark", saved: false };
  if (findTheme(wanted, themes)) return { name: wanted, saved: true };
  return { name: "dark", saved: true, warning: `Theme "${wanted}" from config.json was not found; using dark. Pick one with /theme.` };
}

/** The Style for theme `name` in the colours, attributes and links this terminal supports. */
export function styleFor(name: string, themes: readonly NamedTheme[], env: Env): Style {
  return createStyle(findTheme(name, themes) ?? dark, detectColorMode(env), attributesSupported(env), hyperlinksSupported(env));
}

/** COLORFGBG ("fg;bg", set by rxvt, Konsole and others): background 0-6 or 8 is dark, 7 or 9-15 light. */
export function backgroundFromEnv(env: Env): "dark" | "light" | null {
  const v = env.COLORFGBG;
  if (!v) return null;
  const bg = Number(v.split(";").pop());
  if (!Number.isInteger(bg) || bg < 0 || bg > 15) return null;
  return bg === 7 || bg >= 9 ? "light" : "dark";
}

/** Parses an OSC 11 reply (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB`) into dark or light by luminance. */
export function backgroundFromReply(reply: string): "dark" | "light" | null {
  const m = /\]11;rgba?:([0-9a-f]+)\/([0-9a-f]+)\/([0-9a-f]+)/i.exec(reply);
  if (!m) return null;
  const channel = (h: string) => parseInt(h, 16) / (16 ** h.length - 1);
  const lum = 0.2126 * channel(m[1]!) + 0.7152 * channel(m[2]!) + 0.0722 * channel(m[3]!);
  return lum > 0.5 ? "light" : "dark";
}

/** What `detectBackground` needs from the terminal: a way to write and to see input. */
export interface BackgroundQueryTarget {
  readonly isTTY: boolean;
  write(s: string): void;
  onData(fn: (s: string) => void): () => void;
}

/**
 * The terminal's background brightness. COLORFGBG answers at once; otherwise, on a TTY in raw
 * mode, sends an OSC 11 query followed by a device-attributes query (which every terminal
 * answers), so a terminal without OSC 11 support resolves null as soon as its DA reply arrives
 * instead of waiting out the timeout. Never rejects; the replies are not keys (KeyDecoder
 * swallows them). Call it without awaiting before the first frame and re-theme when it resolves.
 */
export function detectBackground(env: Env = process.env, term?: BackgroundQueryTarget, timeoutMs = 150): Promise<"dark" | "light" | null> {
  const hint = backgroundFromEnv(env);
  if (hint || !term || !term.isTTY || isDumbTerminal(env)) return Promise.resolve(hint);
  return new Promise((resolve) => {
    let seen = "";
    let done = false;
    const finish = (v: "dark" | "light" | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      off();
      resolve(v);
    };
    const off = term.onData((s) => {
      seen += s;
      const bg = backgroundFromReply(seen);
      if (bg) finish(bg);
      else if (/\x1b\[\?[\d;]*c/.test(seen)) finish(null);
    });
    const timer = setTimeout(() => finish(null), timeoutMs);
    term.write("\x1b]11;?\x1b\\\x1b[c");
  });
}
