// sdk/protocol.schema.json is generated from the frame types in src/protocol.ts; SDKs in other
// languages validate their frames against it, so it must never drift from the types.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { protocolSchemaText, schemaFile } from "../../scripts/protocol-schema.ts";

test("the committed frame schema is exactly the one generated from the protocol's TypeScript types", () => {
  expect(readFileSync(schemaFile, "utf8")).toBe(protocolSchemaText());
});

test("the schema lists every frame type of both directions", () => {
  const schema = JSON.parse(readFileSync(schemaFile, "utf8")) as { $defs: Record<string, { oneOf: { properties: { type: { const: string } } }[] }> };
  const types = (name: string) => [...new Set(schema.$defs[name]!.oneOf.map((f) => f.properties.type.const))].sort();
  expect(types("ExtensionFrame")).toEqual([
    "clear_notes",
    "command_response",
    "event_intercept_response",
    "hello",
    "notify",
    "panel_close",
    "panel_render",
    "ready",
    "register_agent",
    "register_command",
    "register_tool",
    "shutdown_ack",
    "submit",
    "subscribe",
    "tool_progress",
    "tool_result",
  ]);
  expect(types("HostFrame")).toEqual([
    "command_invoked",
    "event",
    "event_intercept",
    "hello_ack",
    "panel_close",
    "panel_key",
    "panel_resize",
    "settings_changed",
    "shutdown",
    "tool_call",
    "tool_cancel",
  ]);
});
