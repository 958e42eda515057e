// zot.demo: a zot extension on the zot TypeScript SDK, which handles the handshake, concurrency,
// error replies and stdout for you. It is imported from your zot checkout by absolute path, so this
// file runs with plain `bun` and keeps working after `zot ext install`.
import { Extension, display, text } from "../../../../sdk/typescript/src/index.ts";

const ext = new Extension("zot.demo", "0.1.0");

// A slash command: /zot-demo [text] shows a greeting in the chat (no model call).
ext.command("zot-demo", "say hello from zot.demo", (args) => display(args ? `hello from zot.demo: ${args}` : "hello from zot.demo"));

// A tool the model can call. Add more with ext.tool(name, description, JSON schema, handler): return
// a string or text(...); a thrown error becomes an is_error result.
const echoSchema = {
  type: "object",
  properties: {
    text: {
      type: "string",
      description: "text to echo back",
    },
  },
  required: ["text"],
};
ext.tool("zot_demo_echo", "Echo the given text back.", echoSchema, (args) => text(String(args.text ?? "")));

void ext.run();
