// Whitespace as a regex's \s sees it, tested without a regex: the first regex a run executes pages in
// the engine's compiler (~0.6 MiB of peak RSS), and the one-shot `zot -p` path needs none.

/** The characters `\s` matches: ASCII tab to carriage return, space, and Unicode's spaces and line separators. */
export function isSpace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** `text.replace(/\s+/g, " ")`: every run of whitespace becomes one space. */
export function collapseSpaces(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (!isSpace(text.charCodeAt(i))) continue;
    let end = i + 1;
    while (end < text.length && isSpace(text.charCodeAt(end))) end++;
    out += text.slice(from, i) + " ";
    from = end;
    i = end - 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
