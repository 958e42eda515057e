import { describe, expect, test } from "bun:test";
import { THEME_ROLES } from "../../src/ext/types.ts";
import {
  backgroundFromEnv,
  backgroundFromReply,
  createStyle,
  dark,
  detectBackground,
  detectColorMode,
  light,
  resolveTheme,
  themeNames,
  toXterm256,
} from "../../src/tui/terminal/theme.ts";

describe("detectColorMode", () => {
  test("turns colour off for NO_COLOR and for a dumb terminal", () => {
    expect(detectColorMode({ NO_COLOR: "1", COLORTERM: "truecolor" })).toBe("none");
    expect(detectColorMode({ TERM: "dumb" })).toBe("none");
  });

  test("uses truecolor when COLORTERM says so and 256 colours otherwise", () => {
    expect(detectColorMode({ COLORTERM: "truecolor", TERM: "xterm-256color" })).toBe("truecolor");
    expect(detectColorMode({ COLORTERM: "24bit" })).toBe("truecolor");
    expect(detectColorMode({ TERM: "xterm-256color" })).toBe("256");
    expect(detectColorMode({ NO_COLOR: "" })).toBe("256");
  });
});

describe("toXterm256", () => {
  test("maps exact cube colours and greys onto their palette entries", () => {
    expect(toXterm256("#000000")).toBe(16);
    expect(toXterm256("#ffffff")).toBe(231);
    expect(toXterm256("#ff0000")).toBe(196);
    expect(toXterm256("#5f87af")).toBe(67);
    expect(toXterm256("#808080")).toBe(244);
    expect(toXterm256("#080808")).toBe(232);
  });

  test("picks the nearest entry for colours between palette steps", () => {
    expect(toXterm256("#61afef")).toBe(75);
    expect(toXterm256("#fe0101")).toBe(196);
    expect(toXterm256("#7f7f80")).toBe(244);
  });
});

describe("createStyle", () => {
  test("writes 24-bit colour in truecolor mode and palette indexes in 256 mode", () => {
    expect(createStyle(dark, "truecolor").fg("accent", "x")).toBe("\x1b[38;2;97;175;239mx\x1b[39m");
    expect(createStyle(dark, "256").fg("accent", "x")).toBe("\x1b[38;5;75mx\x1b[39m");
    expect(createStyle(dark, "256").bg("selection", "x")).toBe(`\x1b[48;5;${toXterm256(dark.selection as string)}mx\x1b[49m`);
  });

  test("uses a 0-255 theme colour as a palette index in every colour mode", () => {
    const colors = { ...dark, accent: 208 };
    expect(createStyle(colors, "truecolor").fg("accent", "x")).toBe("\x1b[38;5;208mx\x1b[39m");
  });

  test("drops colours but keeps attributes when colour is off", () => {
    const s = createStyle(dark, "none");
    expect(s.fg("error", "x")).toBe("x");
    expect(s.bg("selection", "x")).toBe("x");
    expect(s.bold("x")).toBe("\x1b[1mx\x1b[22m");
    expect(s.inverse("x")).toBe("\x1b[7mx\x1b[27m");
  });

  test("writes no escapes at all on a dumb terminal", () => {
    const s = createStyle(dark, "none", false);
    expect(s.bold(s.inverse(s.fg("error", "x")))).toBe("x");
  });

  test("re-opens the outer style after a nested one closes", () => {
    const s = createStyle(dark, "256");
    const inner = s.fg("error", "b");
    expect(s.fg("accent", `a${inner}c`)).toBe(`\x1b[38;5;75ma\x1b[38;5;${toXterm256(dark.error as string)}mb\x1b[39m\x1b[38;5;75mc\x1b[39m`);
    expect(s.bold(`a${s.dim("b")}c`)).toBe("\x1b[1ma\x1b[2mb\x1b[22m\x1b[1mc\x1b[22m");
  });

  test("leaves empty text empty", () => {
    expect(createStyle(dark, "256").fg("accent", "")).toBe("");
  });
});

describe("themes", () => {
  test("built-in themes define every role, each as a #rrggbb colour", () => {
    for (const theme of [dark, light]) {
      expect(Object.keys(theme).sort()).toEqual([...THEME_ROLES].sort());
      for (const role of THEME_ROLES) expect(theme[role]).toMatch(/^#[0-9a-f]{6}$/);
    }
  });

  test("resolves built-in and extension themes, filling missing roles from dark", () => {
    expect(resolveTheme("light", [])).toEqual(light);
    const ext = [{ name: "ocean", colors: { accent: "#0000ff", text: 15 } }];
    const t = resolveTheme("ocean", ext);
    expect(t.accent).toBe("#0000ff");
    expect(t.text).toBe(15);
    expect(t.error).toBe(dark.error);
  });

  test("falls back to dark for an unknown name and ignores invalid colours", () => {
    expect(resolveTheme("nope", [])).toEqual(dark);
    expect(resolveTheme("bad", [{ name: "bad", colors: { accent: "blue", user: 300 } }])).toEqual(dark);
  });

  test("lists built-in names first and does not let an extension shadow them", () => {
    expect(
      themeNames([
        { name: "ocean", colors: {} },
        { name: "dark", colors: {} },
      ]),
    ).toEqual(["dark", "light", "ocean"]);
    expect(resolveTheme("dark", [{ name: "dark", colors: { accent: "#000000" } }])).toEqual(dark);
  });
});

describe("background detection", () => {
  test("reads COLORFGBG", () => {
    expect(backgroundFromEnv({ COLORFGBG: "15;0" })).toBe("dark");
    expect(backgroundFromEnv({ COLORFGBG: "0;15" })).toBe("light");
    expect(backgroundFromEnv({ COLORFGBG: "0;default;7" })).toBe("light");
    expect(backgroundFromEnv({ COLORFGBG: "junk" })).toBeNull();
    expect(backgroundFromEnv({})).toBeNull();
  });

  test("reads an OSC 11 reply by luminance", () => {
    expect(backgroundFromReply("\x1b]11;rgb:0000/0000/0000\x1b\\")).toBe("dark");
    expect(backgroundFromReply("\x1b]11;rgb:ffff/ffff/f0f0\x07")).toBe("light");
    expect(backgroundFromReply("\x1b]11;rgb:28/2c/34\x07")).toBe("dark");
    expect(backgroundFromReply("nothing")).toBeNull();
  });

  function fakeTerminal(reply: string | null) {
    const listeners = new Set<(s: string) => void>();
    const written: string[] = [];
    return {
      written,
      target: {
        isTTY: true,
        write(s: string) {
          written.push(s);
          if (reply !== null) queueMicrotask(() => listeners.forEach((fn) => fn(reply)));
        },
        onData(fn: (s: string) => void) {
          listeners.add(fn);
          return () => listeners.delete(fn);
        },
      },
      listeners,
    };
  }

  test("queries the terminal with OSC 11 and resolves from its reply", async () => {
    const t = fakeTerminal("\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62c");
    expect(await detectBackground({}, t.target)).toBe("light");
    expect(t.written).toEqual(["\x1b]11;?\x1b\\\x1b[c"]);
    expect(t.listeners.size).toBe(0);
  });

  test("resolves null as soon as a terminal answers device attributes without a colour", async () => {
    const t = fakeTerminal("\x1b[?62;22c");
    expect(await detectBackground({}, t.target, 60_000)).toBeNull();
  });

  test("prefers COLORFGBG and never queries a dumb terminal", async () => {
    const t = fakeTerminal(null);
    expect(await detectBackground({ COLORFGBG: "0;15" }, t.target)).toBe("light");
    expect(await detectBackground({ TERM: "dumb" }, t.target)).toBeNull();
    expect(t.written).toEqual([]);
  });
});
