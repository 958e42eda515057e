import { describe, expect, test } from "bun:test";
import { sanitize, stripAnsi } from "../../src/tui/terminal/ansi.ts";
import { renderMarkdown, StreamingMarkdown } from "../../src/tui/components/markdown.ts";
import { createStyle, dark, toXterm256 } from "../../src/tui/terminal/theme.ts";
import { visibleWidth } from "../../src/tui/terminal/width.ts";

const plain = createStyle(dark, "none", false);
const color = createStyle(dark, "256");
const md = (src: string, width = 40) => renderMarkdown(src, width, plain);
const fg = (role: keyof typeof dark) => `\x1b[38;5;${typeof dark[role] === "number" ? dark[role] : toXterm256(dark[role] as string)}m`;

const doc = [
  "# Heading with `code`",
  "",
  "Paragraph with **bold**, *italic*, `code`, a [link](https://example.com/a/long/path) and 日本語 text 👍.",
  "",
  "- item one",
  "  - nested item with a long line that needs wrapping",
  "1. numbered",
  "",
  "> quote **strong**",
  "",
  "```ts",
  'const value = await fetch("https://example.com"); // comment that is long',
  "```",
  "",
  "| col | other |",
  "|-----|-------|",
  "| 1   | two   |",
  "",
  "---",
].join("\n");

describe("renderMarkdown blocks", () => {
  test("renders headings without their hashes and in bold accent", () => {
    expect(md("# Title\n## Sub\n### Small")).toEqual(["Title", "Sub", "Small"]);
    const out = renderMarkdown("## Sub", 40, color)[0];
    expect(out).toContain("\x1b[1m");
    expect(out).toContain(fg("accent"));
  });

  test("joins paragraph lines and wraps them to the width", () => {
    expect(md("one two\nthree four five six", 12)).toEqual(["one two", "three four", "five six"]);
  });

  test("keeps a hard line break written as two trailing spaces", () => {
    expect(md("first  \nsecond")).toEqual(["first", "second"]);
  });

  test("renders unordered lists with bullets and a hanging indent", () => {
    expect(md("- short\n- a longer item that wraps here", 16)).toEqual(["• short", "• a longer item", "  that wraps", "  here"]);
  });

  test("renders nested lists with deeper bullets", () => {
    expect(md("- top\n  - inner\n    - deepest\n- back")).toEqual(["• top", "  ◦ inner", "    ▪ deepest", "• back"]);
  });

  test("keeps ordered list numbers and aligns wrapped text after them", () => {
    expect(md("1. first item here\n2. second\n10. tenth", 12)).toEqual(["1. first", "   item here", "2. second", "10. tenth"]);
  });

  test("renders fenced code indented, without fences, keeping spacing", () => {
    expect(md("text\n\n```\n  indented code\nx = 1\n```\nafter")).toEqual(["text", "", "    indented code", "  x = 1", "after"]);
  });

  test("shows the fence language above the code", () => {
    expect(md("```ts\nlet a = 1;\n```")).toEqual(["ts", "  let a = 1;"]);
  });

  test("renders an unclosed fence as code while it streams", () => {
    expect(md("```py\ndef f():\n    **not bold**")).toEqual(["py", "  def f():", "      **not bold**"]);
  });

  test("highlights keywords, strings and comments in code blocks", () => {
    const out = renderMarkdown('```js\nconst s = "hi"; // note\n```', 60, color).join("\n");
    expect(out).toContain(`${fg("accent")}const`);
    expect(out).toContain(`${fg("success")}"hi"`);
    expect(out).toContain(`${fg("muted")}// note`);
    expect(out).toContain(fg("code"));
  });

  test("carries block comments across code lines", () => {
    const out = renderMarkdown("```c\n/* start\nstill comment */ int x;\n```", 60, color);
    expect(out[2]).toContain(`${fg("muted")}still comment */`);
    expect(out[2]).toContain(`${fg("code")} int x;`);
  });

  test("renders blockquotes with a bar", () => {
    expect(md("> quoted words\n> more")).toEqual(["│ quoted words more"]);
  });

  test("renders horizontal rules across the width", () => {
    expect(md("---", 10)).toEqual(["──────────"]);
    expect(md("***", 3)).toEqual(["───"]);
  });

  test("aligns pipe tables", () => {
    expect(md("| a | bb |\n|---|----|\n| ccc | d |")).toEqual(["a   │ bb", "────┼───", "ccc │ d"]);
  });

  test("collapses repeated blank lines and trims trailing ones", () => {
    expect(md("a\n\n\n\nb\n\n")).toEqual(["a", "", "b"]);
  });
});

describe("renderMarkdown inline", () => {
  test("styles bold, italic, strikethrough and bold italic", () => {
    const out = renderMarkdown("**b** *i* _u_ ~~s~~ ***bi***", 60, color)[0]!;
    expect(out).toContain("\x1b[1mb\x1b[22m");
    expect(out).toContain("\x1b[3mi\x1b[23m");
    expect(out).toContain("\x1b[3mu\x1b[23m");
    expect(out).toContain("\x1b[9ms\x1b[29m");
    expect(out).toContain("\x1b[1m\x1b[3mbi\x1b[23m\x1b[22m");
    expect(stripAnsi(out)).toBe("b i u s bi");
  });

  test("leaves unclosed or intraword markers as literal text", () => {
    expect(md("**not closed")).toEqual(["**not closed"]);
    expect(md("snake_case_name and 2 * 3 * 4")).toEqual(["snake_case_name and 2 * 3 * 4"]);
  });

  test("renders inline code in the code colour, keeping backticks only without colour", () => {
    expect(renderMarkdown("use `ls -la` now", 40, color)[0]).toContain(`${fg("code")}ls -la\x1b[39m`);
    expect(md("use `ls -la` now")).toEqual(["use `ls -la` now"]);
    expect(md("a `` code with ` tick `` b")).toEqual(["a ``code with ` tick`` b"]);
  });

  test("does not interpret markup inside inline code", () => {
    expect(stripAnsi(renderMarkdown("`**x**`", 40, color)[0]!)).toBe("**x**");
  });

  test("renders links as text followed by the dimmed url", () => {
    expect(md("see [the docs](https://example.com/x) ok")).toEqual(["see the docs (https://example.com/x) ok"]);
    expect(md("<https://a.b/c>")).toEqual(["https://a.b/c"]);
    expect(md("[https://a.b](https://a.b)")).toEqual(["https://a.b"]);
    expect(md("![logo](img.png)")).toEqual(["[image: logo] (img.png)"]);
    const out = renderMarkdown("[t](u)", 40, color)[0];
    expect(out).toContain(`${fg("muted")}(u)`);
  });

  test("honours backslash escapes", () => {
    expect(md("\\*not italic\\*")).toEqual(["*not italic*"]);
  });
});

describe("renderMarkdown robustness", () => {
  test("keeps every line within the width for every prefix of a streamed document", () => {
    for (const width of [12, 30, 80]) {
      for (let cut = 0; cut <= doc.length; cut += 3) {
        const lines = renderMarkdown(doc.slice(0, cut), width, color);
        for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(width);
      }
    }
  });

  test("renders empty input as no lines", () => {
    expect(md("")).toEqual([]);
  });
});

describe("StreamingMarkdown", () => {
  const long = ["#", doc, doc.replace("```ts", "```ts\n\n\n"), "- loose item\n\n  continued after a blank\n\nafter", doc].join("\n\n");

  test("renders every prefix of a growing document exactly like renderMarkdown", () => {
    const stream = new StreamingMarkdown();
    for (let cut = 0; cut <= long.length; cut += 2) {
      stream.append(long.slice(Math.max(0, cut - 2), cut));
      const prefix = long.slice(0, cut);
      expect(stream.render(50, color)).toEqual(renderMarkdown(prefix, 50, color));
    }
  });

  test("cleans only what is open, with the same lines as cleaning the whole text", () => {
    // Tabs, carriage returns, bidi controls and escape sequences, one of them (an OSC) across lines.
    const hostile = long
      .replace("Paragraph", "\tPara\tgraph\r")
      .replace("- item one", "- item\u202e one\x1b[31m red")
      .replace("> quote", "\x1b]0;title\nstill the title\x07> quote")
      .replace("| col |", "|\tcol |");
    const stream = new StreamingMarkdown(sanitize);
    for (let cut = 0; cut <= hostile.length; cut += 3) {
      stream.append(hostile.slice(Math.max(0, cut - 3), cut));
      const prefix = hostile.slice(0, cut);
      expect(stream.render(50, color)).toEqual(renderMarkdown(sanitize(prefix), 50, color));
    }
  });

  test("starts over when the width or the style changes", () => {
    const stream = new StreamingMarkdown();
    stream.append("para one\n\npara two");
    stream.render(40, color);
    expect([...stream.render(5, plain)]).toEqual(renderMarkdown("para one\n\npara two", 5, plain));
    stream.append("\n\nthree");
    expect(stream.render(40, color)).toEqual(renderMarkdown("para one\n\npara two\n\nthree", 40, color));
  });
});

describe("renderMarkdown edge cases", () => {
  test("draws nothing for an empty heading", () => {
    expect(md("#\n\nnext")).toEqual(["next"]);
  });
});

describe("code highlighting", () => {
  test("colours added, removed and hunk lines in diff blocks", () => {
    const out = renderMarkdown("```diff\n@@ -1 +1 @@\n-old\n+new\n same\n```", 40, color);
    expect(out[1]).toContain(`${fg("accent")}@@ -1 +1 @@`);
    expect(out[2]).toContain(`${fg("error")}-old`);
    expect(out[3]).toContain(`${fg("success")}+new`);
    expect(out[4]).toContain(`${fg("code")} same`);
  });

  test("uses # comments for shell and python and // elsewhere", () => {
    expect(renderMarkdown("```sh\necho hi # note\n```", 40, color)[1]).toContain(`${fg("muted")}# note`);
    expect(renderMarkdown("```python\nx = 1  # note\n```", 40, color)[1]).toContain(`${fg("muted")}# note`);
    expect(renderMarkdown("```go\nx := a // note\n```", 40, color)[1]).toContain(`${fg("muted")}// note`);
    expect(renderMarkdown('```go\nx := "#"\n```', 40, color)[1]).not.toContain(fg("muted"));
  });

  test("leaves plain-text blocks uncoloured apart from the code role", () => {
    expect(renderMarkdown("```text\nif x // y\n```", 40, color)[1]).toBe(`  ${fg("code")}if x // y\x1b[39m`);
  });

  test("highlights numbers and keeps escaped quotes inside strings", () => {
    const line = renderMarkdown('```js\nlet n = 42; let s = "a\\"b";\n```', 60, color)[1];
    expect(line).toContain(`${fg("warning")}42`);
    expect(line).toContain(`${fg("success")}"a\\"b"`);
  });
});

describe("more of Markdown", () => {
  test("setext headings: === and --- under a paragraph", () => {
    expect(md("Title\n=====\n\nSub title\n---\ntext")).toEqual(["Title", "", "Sub title", "text"]);
    const lines = renderMarkdown("Title\n===", 40, color);
    expect(lines[0]).toContain(fg("accent"));
    expect(md("a\n\n---")).toEqual(["a", "", "─".repeat(40)]);
  });

  test("task lists show their boxes instead of bullets", () => {
    expect(md("- [ ] write tests\n- [x] write code\n- plain")).toEqual(["[ ] write tests", "[x] write code", "• plain"]);
  });

  test("table columns follow the separator row's alignment", () => {
    expect(md("| name | n | mid |\n|:--|--:|:-:|\n| a | 1 | x |\n| bb | 100 | yyy |")).toEqual([
      "name │   n │ mid",
      "─────┼─────┼────",
      "a    │   1 │  x",
      "bb   │ 100 │ yyy",
    ]);
  });

  test("a table wider than the screen wraps its widest cells instead of cutting columns", () => {
    const lines = md("| key | description |\n|---|---|\n| a | " + "word ".repeat(12).trim() + " |", 30);
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(30);
    expect(lines.join("\n").replace(/\s+/g, " ")).toContain("word word");
    expect(lines.filter((l) => l.startsWith("a   │") || l.startsWith("    │")).length).toBeGreaterThan(1);
    expect(
      lines
        .map((l) => l.split("│")[1] ?? "")
        .join(" ")
        .match(/word/g),
    ).toHaveLength(12);
  });

  test("links are OSC 8 hyperlinks where the terminal supports them, else the URL follows the text", () => {
    const linked = createStyle(dark, "none", false, true);
    const [line] = renderMarkdown("see [the docs](https://example.com/docs) now", 80, linked);
    expect(line).toContain("\x1b]8;;https://example.com/docs\x1b\\the docs\x1b]8;;\x1b\\");
    expect(stripAnsi(line!)).toBe("see the docs now");
    expect(md("see [the docs](https://example.com/docs) now", 80)).toEqual(["see the docs (https://example.com/docs) now"]);
    // A link wrapped over two lines is closed at the end of the first and re-opened on the second.
    const wrapped = renderMarkdown("[a long link label here](https://x.example)", 10, linked);
    expect(wrapped.length).toBeGreaterThan(1);
    for (const l of wrapped) expect(l.endsWith("\x1b]8;;\x1b\\")).toBe(true);
    expect(wrapped[1]!.startsWith("\x1b]8;;https://x.example\x1b\\")).toBe(true);
  });
});
