// A bash command as permissions see it: the simple commands it chains (`&&`, `||`, `;`, `|`, new
// lines), each as its words with the quotes removed. Only the plain part of the shell language is
// understood; anything that could make a command more than its words (substitution, variables,
// subshells, backgrounding, redirection to a file, assignments, keywords, backslashes, brace
// expansion) makes the whole command unreadable here, and so never matches a rule or counts as
// read-only. Output redirected to another descriptor (`2>&1`) or to /dev/null is dropped.

import { shellQuote } from "../shell-quote.ts";

/** One word after quote removal; `glob` when an unquoted `*`, `?` or `[` lets the shell expand it. */
export type Word = { text: string; glob: boolean };

/** One simple command: a program and its arguments. */
export type CommandPart = Word[];

const KEYWORDS: ReadonlySet<string> = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "in",
  "function",
  "select",
  "time",
  "coproc",
  "!",
  "[[",
  "]]",
  "{",
  "}",
]);

const BLANK = /[ \t]/;
/** Characters that end an unquoted word. */
const DELIMITER = /[ \t\n;&|<>]/;
/** Unquoted characters that take the command out of what is understood here. */
const UNREADABLE = /[$`\\(){}#]/;

/** The simple commands of `command`, or null when it uses anything beyond words, quotes and chaining. */
export function commandParts(command: string): CommandPart[] | null {
  const parts: CommandPart[] = [];
  let words: Word[] = [];
  let word: Word | null = null;
  let i = 0;
  let bad = false;
  const endWord = (): void => {
    // A glob can't be written back bare when it also holds characters that need quotes.
    if (word?.glob && !/^[\w@%+=:,./~*?[\]!-]+$/.test(word.text)) bad = true;
    if (word !== null) words.push(word);
    word = null;
  };
  const endPart = (): boolean => {
    endWord();
    if (words.length === 0) return false;
    parts.push(words);
    words = [];
    return true;
  };
  while (i < command.length) {
    const c = command[i]!;
    if (BLANK.test(c)) {
      endWord();
      i++;
    } else if (c === "'") {
      const close = command.indexOf("'", i + 1);
      if (close < 0) return null;
      word ??= { text: "", glob: false };
      word.text += command.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      let j = i + 1;
      let text = "";
      while (j < command.length && command[j] !== '"') {
        if (/[$`\\]/.test(command[j]!)) return null;
        text += command[j];
        j++;
      }
      if (j >= command.length) return null;
      word ??= { text: "", glob: false };
      word.text += text;
      i = j + 1;
    } else if (c === ">" || (c === "&" && command[i + 1] === ">")) {
      // `N>&M`, `>/dev/null`, `N>/dev/null` and `&>/dev/null` only: output thrown away or merged, never written to a file.
      const w: Word | null = word;
      if (w !== null && !/^[0-9]$/.test(w.text)) return null;
      word = null;
      const end = redirectionEnd(command, c === "&" ? i + 1 : i);
      if (end === null) return null;
      i = end;
    } else if (c === ";" || c === "\n" || c === "|" || c === "&") {
      const two = command.slice(i, i + 2);
      // A lone `&` runs the command in the background; `|&` pipes stderr too.
      if ((c === "&" && two !== "&&") || two === "|&") return null;
      // An empty command before a separator is a syntax error, except a blank line.
      if (!endPart() && c !== "\n") return null;
      i += two === "&&" || two === "||" ? 2 : 1;
    } else if (c === "<" || UNREADABLE.test(c)) {
      return null;
    } else {
      word ??= { text: "", glob: false };
      if (c === "*" || c === "?" || c === "[") word.glob = true;
      word.text += c;
      i++;
    }
  }
  endPart();
  if (bad || parts.length === 0) return null;
  // Assignments (`PAGER=x git log`) change what the program does; keywords make it more than one command.
  for (const part of parts) if (KEYWORDS.has(part[0]!.text) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(part[0]!.text)) return null;
  return parts;
}

/** Where a harmless redirection starting at the `>` at `i` ends, or null when it writes to a file. */
function redirectionEnd(command: string, i: number): number | null {
  const rest = command.slice(i + 1);
  const dup = /^&[0-9]/.exec(rest);
  if (dup) return boundary(command, i + 1 + dup[0].length);
  const devNull = /^[ \t]*\/dev\/null/.exec(rest);
  if (devNull) return boundary(command, i + 1 + devNull[0].length);
  return null;
}

function boundary(command: string, end: number): number | null {
  return end >= command.length || DELIMITER.test(command[end]!) ? end : null;
}

/** A part written back as a command line (globs stay bare so they still expand). */
export function partText(part: CommandPart): string {
  return part.map((w) => (w.glob ? w.text : shellQuote(w.text))).join(" ");
}
