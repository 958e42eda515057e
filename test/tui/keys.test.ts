import { describe, expect, test } from "bun:test";
import { KeyDecoder, keyLabel, toPanelKey, typedAhead, wheelDirection, type Key } from "../../src/tui/terminal/keys.ts";

function decode(...chunks: string[]): Key[] {
  const d = new KeyDecoder();
  const keys: Key[] = [];
  for (const c of chunks) keys.push(...d.feed(c));
  keys.push(...d.flush());
  return keys;
}

const labels = (keys: Key[]) => keys.map(keyLabel);

describe("KeyDecoder: single keys", () => {
  const cases: [string, string][] = [
    ["a", "a"],
    ["Z", "Z"],
    [" ", "space"],
    ["é", "é"],
    ["日", "日"],
    ["😀", "😀"],
    ["\r", "enter"],
    ["\t", "tab"],
    ["\x7f", "backspace"],
    ["\x08", "backspace"],
    ["\x01", "ctrl+a"],
    ["\x03", "ctrl+c"],
    ["\x04", "ctrl+d"],
    ["\x0a", "ctrl+j"],
    ["\x0c", "ctrl+l"],
    ["\x0f", "ctrl+o"],
    ["\x15", "ctrl+u"],
    ["\x17", "ctrl+w"],
    ["\x1a", "ctrl+z"],
    ["\x00", "ctrl+space"],
    ["\x1c", "ctrl+\\"],
    ["\x1f", "ctrl+_"],
    ["\x1b[A", "up"],
    ["\x1b[B", "down"],
    ["\x1b[C", "right"],
    ["\x1b[D", "left"],
    ["\x1b[H", "home"],
    ["\x1b[F", "end"],
    ["\x1bOA", "up"],
    ["\x1bOD", "left"],
    ["\x1bOH", "home"],
    ["\x1bOF", "end"],
    ["\x1bOM", "enter"],
    ["\x1b[1~", "home"],
    ["\x1b[7~", "home"],
    ["\x1b[4~", "end"],
    ["\x1b[8~", "end"],
    ["\x1b[2~", "insert"],
    ["\x1b[3~", "delete"],
    ["\x1b[5~", "pageup"],
    ["\x1b[6~", "pagedown"],
    ["\x1bOP", "f1"],
    ["\x1bOQ", "f2"],
    ["\x1bOR", "f3"],
    ["\x1bOS", "f4"],
    ["\x1b[15~", "f5"],
    ["\x1b[17~", "f6"],
    ["\x1b[21~", "f10"],
    ["\x1b[23~", "f11"],
    ["\x1b[24~", "f12"],
    ["\x1b[Z", "shift+tab"],
  ];
  for (const [seq, label] of cases) {
    test(`decodes ${JSON.stringify(seq)} as ${label}`, () => {
      expect(labels(decode(seq))).toEqual([label]);
    });
  }
});

describe("KeyDecoder: modifiers", () => {
  test("reads xterm modifier parameters on arrows, home/end and tilde keys", () => {
    expect(labels(decode("\x1b[1;5C"))).toEqual(["ctrl+right"]);
    expect(labels(decode("\x1b[1;3D"))).toEqual(["alt+left"]);
    expect(labels(decode("\x1b[1;2A"))).toEqual(["shift+up"]);
    expect(labels(decode("\x1b[1;6H"))).toEqual(["ctrl+shift+home"]);
    expect(labels(decode("\x1b[3;5~"))).toEqual(["ctrl+delete"]);
    expect(labels(decode("\x1b[1;2P"))).toEqual(["shift+f1"]);
  });

  test("treats ESC before a key as alt", () => {
    expect(labels(decode("\x1bb"))).toEqual(["alt+b"]);
    expect(labels(decode("\x1bf"))).toEqual(["alt+f"]);
    expect(labels(decode("\x1b\x7f"))).toEqual(["alt+backspace"]);
    expect(labels(decode("\x1b\r"))).toEqual(["alt+enter"]);
    expect(labels(decode("\x1b\x01"))).toEqual(["ctrl+alt+a"]);
    expect(labels(decode("\x1b\x1b[D"))).toEqual(["alt+left"]);
  });

  test("reads xterm modifyOtherKeys sequences", () => {
    expect(labels(decode("\x1b[27;2;13~"))).toEqual(["shift+enter"]);
    expect(labels(decode("\x1b[27;5;105~"))).toEqual(["ctrl+i"]);
  });
});

describe("KeyDecoder: kitty keyboard protocol", () => {
  test("tells enter, shift+enter, alt+enter and ctrl+enter apart", () => {
    expect(labels(decode("\r", "\x1b[13;2u", "\x1b[13;3u", "\x1b[13;5u"))).toEqual(["enter", "shift+enter", "alt+enter", "ctrl+enter"]);
  });

  test("decodes esc, tab, backspace and ctrl/alt letters", () => {
    expect(labels(decode("\x1b[27u"))).toEqual(["esc"]);
    expect(labels(decode("\x1b[9;2u"))).toEqual(["shift+tab"]);
    expect(labels(decode("\x1b[127u"))).toEqual(["backspace"]);
    expect(labels(decode("\x1b[127;3u"))).toEqual(["alt+backspace"]);
    expect(decode("\x1b[99;5u")).toEqual([{ name: "rune", text: "c", ctrl: true, alt: false, shift: false }]);
    expect(labels(decode("\x1b[105;5u"))).toEqual(["ctrl+i"]);
    expect(labels(decode("\x1b[98;3u"))).toEqual(["alt+b"]);
  });

  test("uses the shifted key and the text field when present", () => {
    expect(decode("\x1b[97:65;2u")[0]!.text).toBe("A");
    expect(decode("\x1b[97;2u")[0]!.text).toBe("A");
    expect(decode("\x1b[97;1;229u")[0]!.text).toBe("å");
  });

  test("ignores key release events and unknown functional keys", () => {
    expect(decode("\x1b[97;1:3u")).toEqual([]);
    expect(decode("\x1b[57441u")).toEqual([]);
  });

  test("maps keypad enter and keypad arrows", () => {
    expect(labels(decode("\x1b[57414u", "\x1b[57419;5u"))).toEqual(["enter", "ctrl+up"]);
  });
});

describe("KeyDecoder: esc and partial input", () => {
  test("keeps a lone ESC pending until flush", () => {
    const d = new KeyDecoder();
    expect(d.feed("\x1b")).toEqual([]);
    expect(d.pending).toBe(true);
    expect(labels(d.flush())).toEqual(["esc"]);
    expect(d.pending).toBe(false);
  });

  test("completes a sequence that arrives in two reads", () => {
    const d = new KeyDecoder();
    expect(d.feed("\x1b[")).toEqual([]);
    expect(d.pending).toBe(true);
    expect(labels(d.feed("1;5"))).toEqual([]);
    expect(labels(d.feed("A"))).toEqual(["ctrl+up"]);
    expect(d.pending).toBe(false);
  });

  test("resolves an abandoned partial sequence into alt and its characters on flush, never esc", () => {
    const d = new KeyDecoder();
    d.feed("\x1b[1;");
    expect(labels(d.flush())).toEqual(["alt+[", "1", ";"]);
    d.feed("\x1bO");
    expect(labels(d.flush())).toEqual(["alt+O"]);
    d.feed("\x1bPab");
    expect(labels(d.flush())).toEqual(["alt+P", "a", "b"]);
  });

  test("reads alt+shift+x and alt+^ at once rather than as the start of a terminal reply", () => {
    expect(labels(new KeyDecoder().feed("\x1bX"))).toEqual(["alt+X"]);
    expect(labels(new KeyDecoder().feed("\x1b^"))).toEqual(["alt+^"]);
  });

  test("decodes the same keys whatever byte boundary the input is split at", () => {
    const input = "ab\x1b[A\x1b[1;5C\x1bOP\x1b[3~\x1b[13;2u\x1bb\x03日😀\x1b[200~pasted\r\ntext\x1b[201~\x1b[27;2;13~\x1b[Z\x7f\r";
    const whole = decode(input);
    expect(labels(whole)).toEqual([
      "a",
      "b",
      "up",
      "ctrl+right",
      "f1",
      "delete",
      "shift+enter",
      "alt+b",
      "ctrl+c",
      "日",
      "😀",
      "paste",
      "shift+enter",
      "shift+tab",
      "backspace",
      "enter",
    ]);
    for (let cut = 1; cut < input.length; cut++) {
      // Splitting inside a surrogate pair cannot happen with a UTF-8 decoded stream.
      if (input.charCodeAt(cut) >= 0xdc00 && input.charCodeAt(cut) <= 0xdfff) continue;
      expect(decode(input.slice(0, cut), input.slice(cut))).toEqual(whole);
    }
  });

  test("decodes the same keys when every character arrives in its own read", () => {
    const input = "\x1b[1;3D\x1b[5~x\x1b[200~a\x1b[201~";
    expect(decode(...Array.from(input))).toEqual(decode(input));
  });

  test("swallows terminal replies such as OSC colour answers and device attributes", () => {
    expect(labels(decode("\x1b]11;rgb:0000/0000/0000\x1b\\x", "\x1b[?62;22c", "y"))).toEqual(["x", "y"]);
    expect(labels(decode("\x1b]11;rgb:ffff/ff", "ff/ffff\x07z"))).toEqual(["z"]);
  });
});

describe("KeyDecoder: bracketed paste", () => {
  test("delivers pasted text as one key with newlines normalized", () => {
    expect(decode("\x1b[200~line1\r\nline2\rline3\x1b[201~")).toEqual([{ name: "paste", text: "line1\nline2\nline3", ctrl: false, alt: false, shift: false }]);
  });

  test("collects a paste across many reads, including a split end marker", () => {
    const d = new KeyDecoder();
    expect(d.feed("\x1b[200~hello ")).toEqual([]);
    expect(d.pending).toBe(false);
    expect(d.feed("world\x1b[2")).toEqual([]);
    expect(d.flush()).toEqual([]);
    expect(d.feed("01~x")).toEqual([
      { name: "paste", text: "hello world", ctrl: false, alt: false, shift: false },
      { name: "rune", text: "x", ctrl: false, alt: false, shift: false },
    ]);
  });

  test("keeps escape characters that are part of the pasted text", () => {
    expect(decode("\x1b[200~a\x1b[31mb\x1b[201~")[0]!.text).toBe("a\x1b[31mb");
  });

  test("delivers an empty paste", () => {
    expect(decode("\x1b[200~\x1b[201~")[0]).toEqual({ name: "paste", text: "", ctrl: false, alt: false, shift: false });
  });
});

describe("toPanelKey", () => {
  const k = (name: string, extra: Partial<Key> = {}): Key => ({ name, ctrl: false, alt: false, shift: false, ...extra });

  test("passes the spec's named keys through", () => {
    for (const name of ["up", "down", "left", "right", "enter", "esc", "tab", "pageup", "pagedown", "home", "end", "backspace", "delete"])
      expect(toPanelKey(k(name))).toEqual({ key: name as never });
  });

  test("sends typed characters as rune with text", () => {
    expect(toPanelKey(k("rune", { text: "x" }))).toEqual({ key: "rune", text: "x" });
    expect(toPanelKey(k("rune", { text: "X", shift: true }))).toEqual({ key: "rune", text: "X" });
  });

  test("sends a paste as one rune with newlines as spaces", () => {
    expect(toPanelKey(k("paste", { text: "a\nb" }))).toEqual({ key: "rune", text: "a b" });
  });

  test("drops ctrl and alt combinations, function keys and insert", () => {
    expect(toPanelKey(k("rune", { text: "c", ctrl: true }))).toBeNull();
    expect(toPanelKey(k("rune", { text: "b", alt: true }))).toBeNull();
    expect(toPanelKey(k("f5"))).toBeNull();
    expect(toPanelKey(k("insert"))).toBeNull();
  });
});

describe("KeyDecoder: double escape", () => {
  test("reads two quick esc presses as two esc keys", () => {
    expect(labels(decode("\x1b\x1b"))).toEqual(["esc", "esc"]);
  });

  test("starts a paste that follows an esc press", () => {
    expect(labels(decode("\x1b\x1b[200~hi\x1b[201~"))).toEqual(["esc", "paste"]);
  });
});

describe("wheelDirection", () => {
  const feed = (s: string) => new KeyDecoder().feed(s);
  test("a burst of plain arrows in one read is the mouse wheel", () => {
    expect(wheelDirection(feed("\x1b[A\x1b[A\x1b[A"))).toBe(1);
    expect(wheelDirection(feed("\x1bOB\x1bOB\x1bOB"))).toBe(-1);
  });
  test("a single arrow, mixed arrows or modified arrows are typed keys", () => {
    expect(wheelDirection(feed("\x1b[A"))).toBe(0);
    expect(wheelDirection(feed("\x1b[A\x1b[B"))).toBe(0);
    expect(wheelDirection(feed("\x1b[1;2A\x1b[1;2A"))).toBe(0);
    expect(wheelDirection(feed("a\x1b[A"))).toBe(0);
  });
});

describe("typedAhead", () => {
  test("Enters typed during start-up (line feeds from the cooked terminal) are Enters, and decode as enter", () => {
    expect(typedAhead("fix the build\n")).toBe("fix the build\r");
    expect(new KeyDecoder().feed(typedAhead("hi\n")).map(keyLabel)).toEqual(["h", "i", "enter"]);
    expect(new KeyDecoder().feed("\n").map(keyLabel)).toEqual(["ctrl+j"]);
  });

  test("a bracketed paste keeps its line feeds", () => {
    const paste = "\x1b[200~one\ntwo\x1b[201~";
    expect(typedAhead(paste)).toBe(paste);
  });
});
