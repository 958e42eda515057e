// Which theme the TUI starts with and the Style for a theme name: a saved choice in config.json
// wins; otherwise dark until the terminal's background says light.
import { attributesSupported, createStyle, dark, detectColorMode, findTheme, hyperlinksSupported, type NamedTheme, type Style } from "./theme.ts";

export type ThemeChoice = { name: string; saved: boolean; warning?: string };

export function savedTheme(wanted: string | undefined, themes: readonly NamedTheme[]): ThemeChoice {
  if (wanted === undefined) return { name: "dark", saved: false };
  if (findTheme(wanted, themes)) return { name: wanted, saved: true };
  return { name: "dark", saved: true, warning: `Theme "${wanted}" from config.json was not found; using dark. Pick one with /theme.` };
}

export function styleFor(name: string, themes: readonly NamedTheme[], env: Record<string, string | undefined>): Style {
  return createStyle(findTheme(name, themes) ?? dark, detectColorMode(env), attributesSupported(env), hyperlinksSupported(env));
}
