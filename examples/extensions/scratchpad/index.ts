// A scratchpad shared by the user (slash commands) and the model (a tool), kept in scratchpad.md in
// the extension's data_dir so it survives restarts.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Extension, display, error, insert, noop, text } from "../../../sdk/typescript/src/index.ts";

const ext = new Extension("scratchpad", "1.0.0");
let file = "";

const read = (): string => (existsSync(file) ? readFileSync(file, "utf8") : "");
const append = (note: string): void => writeFileSync(file, read() + note.trim() + "\n");

ext.onHello((host) => {
  file = join(host.dataDir || process.cwd(), "scratchpad.md");
});

ext.command("scratch", "show the scratchpad, or /scratch <text> to add a line", (args) => {
  if (args) {
    append(args);
    ext.notify("success", "noted");
    return noop();
  }
  const body = read();
  return display(body ? body.trimEnd() : "(the scratchpad is empty)");
});

ext.command("scratch-insert", "insert the scratchpad into the editor", () => {
  const body = read().trimEnd();
  return body ? insert(body) : error("the scratchpad is empty");
});

ext.command("scratch-clear", "empty the scratchpad", () => {
  writeFileSync(file, "");
  return display("scratchpad cleared");
});

ext.tool(
  "scratchpad",
  "Read or append to a scratchpad the user also sees (/scratch). Use it for notes worth keeping across turns.",
  {
    type: "object",
    properties: {
      action: { type: "string", enum: ["read", "append"] },
      text: { type: "string", description: "the line to append (for append)" },
    },
    required: ["action"],
  },
  (args) => {
    if (args.action === "read") return text(read() || "(the scratchpad is empty)");
    if (args.action === "append") {
      if (typeof args.text !== "string" || !args.text.trim()) return text('"append" needs a non-empty "text".', { isError: true });
      append(args.text);
      return text("appended");
    }
    return text(`Unknown action ${JSON.stringify(args.action)}; use read or append.`, { isError: true });
  },
);

void ext.run();
