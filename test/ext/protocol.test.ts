// The host→extension decoder the SDK and `zot ext test` share: real frames decode into their typed
// shape, fields an encoder leaves out when empty get their empty value, and wrong types are errors.
import { describe, expect, test } from "bun:test";
import { decodeHostFrame } from "../../src/protocol.ts";

describe("decodeHostFrame", () => {
  test("a hello_ack without data_dir keeps data in the extension directory, and missing strings are empty", () => {
    expect(decodeHostFrame({ type: "hello_ack", protocol_version: 1, extension_dir: "/ext" })).toEqual({
      ok: true,
      value: {
        type: "hello_ack",
        protocol_version: 1,
        zot_version: "",
        provider: "",
        model: "",
        cwd: "",
        extension_dir: "/ext",
        data_dir: "/ext",
        capabilities: [],
      },
    });
  });

  test("a hello_ack without a protocol version is an error naming the field", () => {
    expect(decodeHostFrame({ type: "hello_ack" })).toEqual({ ok: false, error: 'hello_ack: missing required number field "protocol_version"' });
  });

  test("requests decode with their defaults: empty command args, empty tool args object", () => {
    expect(decodeHostFrame({ type: "command_invoked", id: "1", name: "hi" })).toEqual({
      ok: true,
      value: { type: "command_invoked", id: "1", name: "hi", args: "" },
    });
    expect(decodeHostFrame({ type: "tool_call", id: "2", name: "t" })).toEqual({ ok: true, value: { type: "tool_call", id: "2", name: "t", args: {} } });
    expect(decodeHostFrame({ type: "tool_call", name: "t", args: {} })).toEqual({ ok: false, error: 'tool_call: missing required string field "id"' });
  });

  test("events and intercepts decode by event name; an unknown event name is an error, not a silent cast", () => {
    expect(decodeHostFrame({ type: "event", event: "turn_end", stop: "end_turn" })).toEqual({
      ok: true,
      value: { type: "event", event: "turn_end", stop: "end_turn" },
    });
    expect(decodeHostFrame({ type: "event", event: "turn_start", step: "one" })).toEqual({
      ok: false,
      error: 'event: field "step" must be a number, got string',
    });
    expect(decodeHostFrame({ type: "event", event: "sunrise" })).toEqual({ ok: false, error: 'event: unknown event "sunrise"' });
    expect(
      decodeHostFrame({ type: "event_intercept", id: "9", event: "tool_result", tool_id: "c", tool_name: "read", content: [{ type: "text", text: "x" }] }),
    ).toEqual({
      ok: true,
      value: {
        type: "event_intercept",
        id: "9",
        event: "tool_result",
        tool_id: "c",
        tool_name: "read",
        tool_args: {},
        content: [{ type: "text", text: "x" }],
        is_error: false,
      },
    });
    expect(decodeHostFrame({ type: "event_intercept", id: "9", event: "tool_result", content: [{ type: "video" }] })).toEqual({
      ok: false,
      error: 'event_intercept: content[0].type must be "text" or "image", got "video"',
    });
  });

  test("panel frames check the key name and the size", () => {
    expect(decodeHostFrame({ type: "panel_key", panel_id: "p", key: "rune", text: "x" })).toEqual({
      ok: true,
      value: { type: "panel_key", panel_id: "p", key: "rune", text: "x" },
    });
    expect(decodeHostFrame({ type: "panel_key", panel_id: "p", key: "f5" }).ok).toBe(false);
    expect(decodeHostFrame({ type: "panel_resize", panel_id: "p", width: 80, height: 20 })).toEqual({
      ok: true,
      value: { type: "panel_resize", panel_id: "p", width: 80, height: 20 },
    });
    expect(decodeHostFrame({ type: "panel_resize", panel_id: "p", width: 80 })).toEqual({
      ok: false,
      error: 'panel_resize: missing required number field "height"',
    });
  });

  test("an unknown frame type is reported as unknown so a reader can ignore it", () => {
    expect(decodeHostFrame({ type: "brand_new" })).toEqual({ ok: false, error: 'unknown frame type "brand_new"', unknownType: "brand_new" });
    expect(decodeHostFrame([1])).toEqual({ ok: false, error: "frame must be a JSON object, got array" });
  });
});
