// Theme files: `{"name": string, "colors": {role: "#rrggbb" | 0-255}}`. Used for theme-only
// extensions here and by the TUI for its built-in themes, so both validate colours the same way.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject, kind } from "../../json.ts";
import { THEME_ROLES, type Theme, type ThemeRole } from "../types.ts";

export type ThemeColor = string | number;
export type ThemeColors = Partial<Record<ThemeRole, ThemeColor>>;

export type ThemeDecoded = { ok: true; name: string; colors: ThemeColors; warnings: string[] } | { ok: false; error: string; warnings: string[] };

const HEX = /^#[0-9a-f]{6}$/i;

/** A colour is `"#rrggbb"` or an integer 0–255 (the 256-colour palette). */
export function isColor(v: unknown): v is ThemeColor {
  if (typeof v === "string") return HEX.test(v);
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 255;
}

/** Validates a parsed theme value; `source` (a path or built-in name) names it in messages. */
export function decodeTheme(raw: unknown, source: string): ThemeDecoded {
  const warnings: string[] = [];
  if (!isObject(raw)) return { ok: false, error: `theme ${source} must be a JSON object, not ${kind(raw)}; it was not loaded.`, warnings };
  if (typeof raw.name !== "string" || raw.name.trim() === "")
    return { ok: false, error: `theme ${source} needs a non-empty string "name"; it was not loaded.`, warnings };
  const name = raw.name;
  if (!isObject(raw.colors)) return { ok: false, error: `theme "${name}" (${source}) needs a "colors" object; it was not loaded.`, warnings };
  const colors: ThemeColors = {};
  for (const [role, value] of Object.entries(raw.colors)) {
    if (!(THEME_ROLES as readonly string[]).includes(role)) {
      warnings.push(`theme "${name}" (${source}): unknown colour role "${role}" ignored (known roles: ${THEME_ROLES.join(", ")}).`);
      continue;
    }
    if (!isColor(value))
      return {
        ok: false,
        error: `theme "${name}" (${source}): colour "${role}" is ${JSON.stringify(value)}, not "#rrggbb" or an integer 0-255; the theme was not loaded.`,
        warnings,
      };
    colors[role as ThemeRole] = value;
  }
  return { ok: true, name, colors, warnings };
}

/** Parses theme JSON text. */
export function parseTheme(text: string, source: string): ThemeDecoded {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `theme ${source} is not valid JSON (${e instanceof Error ? e.message : String(e)}); it was not loaded.`, warnings: [] };
  }
  return decodeTheme(raw, source);
}

/** `theme.json`, else `themes/theme.json`, inside an extension directory. */
export function findThemeFile(dir: string): string | null {
  for (const candidate of [join(dir, "theme.json"), join(dir, "themes", "theme.json")]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Loads the theme file of extension `extension`; rejected themes come back as `theme: null` with a warning. */
export function loadTheme(path: string, extension: string): { theme: Theme | null; warnings: string[] } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    return { theme: null, warnings: [`theme ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)}); it was not loaded.`] };
  }
  const decoded = parseTheme(text, path);
  if (!decoded.ok) return { theme: null, warnings: [...decoded.warnings, decoded.error] };
  return { theme: { name: decoded.name, colors: decoded.colors as Record<string, ThemeColor>, extension, path }, warnings: decoded.warnings };
}
