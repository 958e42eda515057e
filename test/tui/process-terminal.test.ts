// The direct terminal's raw mode when the terminal refuses it: an error that says so, not a TUI
// left in cooked mode (keys echoed, nothing seen before enter). The refusal is the binding's
// answer, stood in for by a handle that returns an error number as Bun's does.
import { expect, test } from "bun:test";
import { type TtyHandle, TtyInput } from "../../src/tui/terminal/process-terminal.ts";

const handle = (answer: number, modes: number[]): TtyHandle => ({
  setRawMode: (mode) => {
    modes.push(mode);
    return answer;
  },
  getWindowSize: () => false,
});

test("a terminal that refuses raw mode is an error naming what was refused", () => {
  const modes: number[] = [];
  const input = new TtyInput(handle(5, modes));
  expect(() => input.setRawMode(true)).toThrow("the terminal refused to enter raw mode (error 5)");
  expect(() => input.setRawMode(false)).toThrow("the terminal refused to leave raw mode (error 5)");
  expect(modes).toEqual([1, 0]);
});

test("a terminal that takes raw mode is asked for raw then normal mode", () => {
  const modes: number[] = [];
  const input = new TtyInput(handle(0, modes));
  input.setRawMode(true);
  input.setRawMode(false);
  expect(modes).toEqual([1, 0]);
});
