// /now and /uptime in plain Node: the wire protocol by hand with node:readline, no SDK.
import { createInterface } from "node:readline";

const started = Date.now();
const send = (frame) => process.stdout.write(JSON.stringify(frame) + "\n");

function duration(ms) {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h ${m}m ${s % 60}s` : m ? `${m}m ${s % 60}s` : `${s}s`;
}

function answer(msg) {
  switch (msg.name) {
    case "now": {
      const now = new Date();
      return { action: "display", display: `${now.toLocaleString("en-GB", { dateStyle: "full", timeStyle: "long" })} (${now.toISOString()})` };
    }
    case "uptime":
      return {
        action: "prompt",
        prompt: `This zot session has been running for ${duration(Date.now() - started)}. Suggest, in one sentence, whether I should take a break.`,
      };
    default:
      return { action: "noop", error: `clock has no command "/${msg.name}"` };
  }
}

send({ type: "hello", name: "clock", version: "1.0.0", capabilities: ["commands"] });

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.type === "hello_ack") {
    send({ type: "register_command", name: "now", description: "show the current date and time" });
    send({ type: "register_command", name: "uptime", description: "ask the model about this session's length" });
    send({ type: "ready" });
  } else if (msg.type === "command_invoked") {
    send({ type: "command_response", id: msg.id, ...answer(msg) });
  } else if (msg.type === "shutdown") {
    process.stdout.write(JSON.stringify({ type: "shutdown_ack" }) + "\n", () => process.exit(0));
  }
});
lines.on("close", () => process.exit(0));
