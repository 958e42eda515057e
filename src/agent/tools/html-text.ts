// HTML to readable, Markdown-like text for web_fetch, without a parser dependency: one pass over
// the tags. Headings become `#` lines, links `[text](url)` (resolved against the page), list items
// `- ` or `1. `, pre blocks fenced, inline code in backticks, table cells separated by ` | `;
// scripts, styles and other invisible parts are dropped and entities decoded. It reads real-world
// HTML roughly, never exactly: unclosed tags and stray brackets only cost formatting.

/** Elements whose content is never shown. */
const HIDDEN = new Set(["script", "style", "noscript", "template", "svg", "head", "iframe", "object", "canvas", "select"]);
/** Elements that start and end a block of text. */
const BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "nav",
  "aside",
  "form",
  "fieldset",
  "figure",
  "figcaption",
  "blockquote",
  "address",
  "details",
  "summary",
  "dl",
  "dt",
  "dd",
  "ul",
  "ol",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "caption",
  "hr",
]);

const NAMED: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  bull: "•",
  middot: "·",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  deg: "°",
  times: "×",
  divide: "÷",
  plusmn: "±",
  para: "¶",
  sect: "§",
  eacute: "é",
  egrave: "è",
  ecirc: "ê",
  aacute: "á",
  agrave: "à",
  acirc: "â",
  iacute: "í",
  oacute: "ó",
  uacute: "ú",
  auml: "ä",
  ouml: "ö",
  uuml: "ü",
  Auml: "Ä",
  Ouml: "Ö",
  Uuml: "Ü",
  szlig: "ß",
  ccedil: "ç",
  ntilde: "ñ",
  shy: "",
  zwj: "",
  zwnj: "",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  check: "✓",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "\uFFFD";
    }
    return NAMED[name] ?? NAMED[name.toLowerCase()] ?? whole;
  });
}

type Tag = { name: string; closing: boolean; attrs: string };

/** The page's title, if it has one. */
export function htmlTitle(html: string): string | null {
  const m = /<title[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const title = m ? decodeEntities(m[1]!).replace(/\s+/g, " ").trim() : "";
  return title === "" ? null : title;
}

function attr(attrs: string, name: string): string | null {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(attrs);
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? "") : null;
}

function resolveHref(href: string, base: URL): string | null {
  try {
    const u = new URL(href, base);
    return u.protocol === "http:" || u.protocol === "https:" || u.protocol === "mailto:" ? u.href : null;
  } catch {
    return null;
  }
}

class Writer {
  private out = "";
  /** Newlines owed before the next text: 1 ends a line, 2 leaves a blank line. */
  private owed = 0;
  private linePrefix = "";

  text(s: string): void {
    const atLineStart = this.owed > 0 || this.out === "" || this.out.endsWith("\n");
    if (atLineStart) s = s.replace(/^[ \t]+/, "");
    if (s === "") return;
    if (this.owed > 0 && this.out !== "") this.out = this.out.replace(/[ \t]+$/, "") + "\n".repeat(this.owed);
    this.owed = 0;
    if (atLineStart) this.out += this.linePrefix;
    this.out += s;
  }

  /** Inline text: runs of whitespace become one space, none at the start of a line. */
  inline(s: string): void {
    const collapsed = s.replace(/\s+/g, " ");
    if (collapsed === " " && this.out.endsWith(" ")) return;
    this.text(collapsed);
  }

  raw(s: string): void {
    this.text(s);
  }

  line(): void {
    this.owed = Math.max(this.owed, 1);
  }

  block(): void {
    this.owed = Math.max(this.owed, 2);
  }

  quote(on: boolean): void {
    this.linePrefix = on ? "> " : "";
  }

  done(): string {
    return this.out
      .replace(/[ \t]+\n/g, "\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim();
  }
}

/** The page as text; `base` resolves relative links. */
export function htmlToText(html: string, base: URL): string {
  const w = new Writer();
  const lists: { ordered: boolean; n: number }[] = [];
  const links: (string | null)[] = [];
  let hidden: string | null = null;
  let pre = 0;
  let quoteDepth = 0;
  let cells = 0;
  const tagRe = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\?[^>]*>|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  let last = 0;
  const emitText = (s: string): void => {
    if (hidden !== null || s === "") return;
    const decoded = decodeEntities(s);
    if (pre > 0) w.raw(decoded);
    else w.inline(decoded);
  };
  for (let m = tagRe.exec(html); m; m = tagRe.exec(html)) {
    emitText(html.slice(last, m.index));
    last = tagRe.lastIndex;
    if (m[2] === undefined) continue;
    const tag: Tag = { name: m[2].toLowerCase(), closing: m[1] === "/", attrs: m[3] ?? "" };
    if (hidden !== null) {
      if (tag.closing && tag.name === hidden) hidden = null;
      continue;
    }
    if (!tag.closing && HIDDEN.has(tag.name) && !/\/\s*$/.test(tag.attrs)) {
      hidden = tag.name;
      continue;
    }
    handle(tag);
  }
  emitText(html.slice(last));
  return w.done();

  function handle(tag: Tag): void {
    const { name, closing } = tag;
    if (/^h[1-6]$/.test(name)) {
      w.block();
      if (!closing) w.text(`${"#".repeat(Number(name[1]))} `);
      return;
    }
    switch (name) {
      case "br":
        w.line();
        return;
      case "pre":
        if (!closing) w.block();
        if (closing) {
          pre = Math.max(0, pre - 1);
          w.line();
          w.raw("```");
          w.block();
        } else {
          w.raw("```");
          w.line();
          pre++;
        }
        return;
      case "code":
      case "kbd":
      case "samp":
        if (pre === 0) w.inline("`");
        return;
      case "strong":
      case "b":
        w.inline("**");
        return;
      case "em":
      case "i":
        w.inline("_");
        return;
      case "a":
        if (!closing) {
          const href = attr(tag.attrs, "href");
          const target = href === null || href.startsWith("#") ? null : resolveHref(href, base);
          links.push(target);
          if (target !== null) w.inline("[");
        } else {
          const target = links.pop();
          if (target) w.inline(`](${target})`);
        }
        return;
      case "img":
        if (!closing) {
          const alt = attr(tag.attrs, "alt");
          if (alt) w.inline(`[image: ${alt.replace(/\s+/g, " ").trim()}]`);
        }
        return;
      case "li":
        if (closing) return;
        w.line();
        {
          const list = lists[lists.length - 1];
          const indent = "  ".repeat(Math.max(0, lists.length - 1));
          if (list?.ordered) w.text(`${indent}${++list.n}. `);
          else w.text(`${indent}- `);
        }
        return;
      case "ul":
      case "ol":
        if (closing) lists.pop();
        else lists.push({ ordered: name === "ol", n: Number(attr(tag.attrs, "start") ?? "1") - 1 || 0 });
        w.block();
        return;
      case "tr":
        w.line();
        cells = 0;
        return;
      case "td":
      case "th":
        if (!closing && cells++ > 0) w.inline(" | ");
        return;
      case "blockquote":
        quoteDepth = Math.max(0, quoteDepth + (closing ? -1 : 1));
        w.block();
        w.quote(quoteDepth > 0);
        return;
      case "hr":
        w.block();
        w.text("---");
        w.block();
        return;
    }
    if (BLOCKS.has(name)) w.block();
  }
}
