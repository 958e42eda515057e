// A small syntax highlighter for Markdown code blocks: keywords, strings, numbers and comments
// across the common languages. Good enough to read code at a glance; not a parser.
import type { ThemeRole } from "../../ext/types.ts";
import type { Style } from "../terminal/theme.ts";

const KEYWORDS = new Set(
  (
    "abstract and as async await break case catch class const continue def default defer del delete do elif else enum " +
    "except export extends false fi final finally fn for from func function go if impl implements import in interface " +
    "is lambda let loop match mod module mut new nil none not null of or package pass private protected pub public " +
    "raise readonly return self select static struct super switch then this throw throws trait true try type typeof " +
    "undefined unsafe use var void where while with yield True False None done esac local echo"
  ).split(" "),
);

const HASH_COMMENTS = new Set([
  "py",
  "python",
  "sh",
  "bash",
  "zsh",
  "shell",
  "fish",
  "yaml",
  "yml",
  "toml",
  "rb",
  "ruby",
  "r",
  "perl",
  "pl",
  "make",
  "makefile",
  "dockerfile",
  "conf",
  "ini",
  "nix",
  "elixir",
  "ex",
  "coffee",
  "tcl",
  "powershell",
  "ps1",
]);
const DASH_COMMENTS = new Set(["sql", "lua", "haskell", "hs", "elm", "ada"]);
const PLAIN = new Set(["text", "txt", "plain", "plaintext", "markdown", "md", "log", "output", "console"]);

/** Carries a block comment from one line of a code block to the next. */
export type HighlightState = { inBlockComment: boolean };

type Segment = { role: ThemeRole; text: string };

function commentStart(line: string, i: number, lang: string): boolean {
  const c = line[i];
  if (HASH_COMMENTS.has(lang)) return c === "#";
  if (DASH_COMMENTS.has(lang)) return c === "-" && line[i + 1] === "-";
  if (c === "/" && line[i + 1] === "/") return true;
  // Unknown language: a `#` that starts the line is a comment in most scripting languages.
  return lang === "" && c === "#" && line.slice(0, i).trim() === "";
}

function segments(line: string, lang: string, state: HighlightState): Segment[] {
  const out: Segment[] = [];
  const push = (role: ThemeRole, text: string) => {
    const last = out[out.length - 1];
    if (last && last.role === role) last.text += text;
    else out.push({ role, text });
  };
  const blockComments = !HASH_COMMENTS.has(lang) && !DASH_COMMENTS.has(lang);
  let i = 0;
  while (i < line.length) {
    if (state.inBlockComment) {
      const end = line.indexOf("*/", i);
      if (end < 0) {
        push("muted", line.slice(i));
        return out;
      }
      push("muted", line.slice(i, end + 2));
      state.inBlockComment = false;
      i = end + 2;
      continue;
    }
    const c = line.charAt(i);
    if (blockComments && c === "/" && line[i + 1] === "*") {
      state.inBlockComment = true;
      push("muted", "/*");
      i += 2;
      continue;
    }
    if (commentStart(line, i, lang)) {
      push("muted", line.slice(i));
      return out;
    }
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += line[j] === "\\" ? 2 : 1;
      push("success", line.slice(i, Math.min(j + 1, line.length)));
      i = j + 1;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < line.length && /[\w$]/.test(line[j]!)) j++;
      const word = line.slice(i, j);
      push(KEYWORDS.has(word) ? "accent" : "code", word);
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < line.length && /[\w.]/.test(line[j]!)) j++;
      push("warning", line.slice(i, j));
      i = j;
      continue;
    }
    push("code", c);
    i++;
  }
  return out;
}

/** Colours one line of a code block in language `lang` (lower-case fence info, may be empty). */
export function highlightLine(line: string, lang: string, state: HighlightState, style: Style): string {
  if (line === "") return "";
  if (PLAIN.has(lang)) return style.fg("code", line);
  if (lang === "diff" || lang === "patch") {
    const role: ThemeRole = line.startsWith("+") ? "success" : line.startsWith("-") ? "error" : line.startsWith("@@") ? "accent" : "code";
    return style.fg(role, line);
  }
  return segments(line, lang, state)
    .map((s) => style.fg(s.role, s.text))
    .join("");
}
