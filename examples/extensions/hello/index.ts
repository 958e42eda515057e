// Two slash commands with the TypeScript SDK: /hello asks the model for a greeting, /cwd shows the
// project directory (registered after hello_ack because it needs host metadata).
import { Extension, display, prompt } from "../../../sdk/typescript/src/index.ts";

const ext = new Extension("hello", "1.0.0");

ext.command("hello", "say hi", (args) => prompt(args ? `Greet ${args} in one short sentence.` : "Greet me in one short sentence."));

ext.onHello((host) => {
  if (host.cwd) ext.command("cwd", "show the current project directory", () => display(host.cwd));
});

void ext.run();
