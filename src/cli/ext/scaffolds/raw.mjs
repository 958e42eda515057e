// zot.demo: a zot extension in plain Node (raw protocol: one JSON object per line on stdin/stdout).
import { createInterface } from "node:readline";

function send(frame) {
  process.stdout.write(JSON.stringify(frame) + "\n");
}

// Tools by name: add an entry here and a register_tool frame under hello_ack to add a tool.
const tools = {
  zot_demo_echo: (args) => String(args.text ?? ""),
};

send({ type: "hello", name: "zot.demo", version: "0.1.0", capabilities: ["commands", "tools"] });

createInterface({ input: process.stdin })
  .on("line", (line) => {
    if (line.trim() === "") return;
    const msg = JSON.parse(line);
    switch (msg.type) {
      case "hello_ack":
        send({ type: "register_command", name: "zot-demo", description: "say hello from zot.demo" });
        send({
          type: "register_tool",
          name: "zot_demo_echo",
          description: "Echo the given text back.",
          schema: { type: "object", properties: { text: { type: "string", description: "text to echo back" } }, required: ["text"] },
        });
        send({ type: "ready" });
        break;
      case "command_invoked": {
        const args = String(msg.args ?? "");
        send({ type: "command_response", id: msg.id, action: "display", display: args ? `hello from zot.demo: ${args}` : "hello from zot.demo" });
        break;
      }
      case "tool_call": {
        const tool = tools[String(msg.name)];
        const content = (text) => [{ type: "text", text }];
        if (!tool) send({ type: "tool_result", id: msg.id, content: content(`unknown tool ${msg.name}`), is_error: true });
        else send({ type: "tool_result", id: msg.id, content: content(tool(msg.args ?? {})) });
        break;
      }
      case "shutdown":
        send({ type: "shutdown_ack" });
        process.exit(0);
    }
  })
  .on("close", () => process.exit(0));
