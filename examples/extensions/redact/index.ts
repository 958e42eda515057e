// Masks secrets on their way out: in the assistant's visible text (the transcript keeps the original,
// per the spec) and in tool results before the model reads them (e.g. `cat .env`).
import { Extension, display } from "../../../sdk/typescript/src/index.ts";
import { mask } from "./mask.ts";

const ext = new Extension("redact", "1.0.0");
let redactions = 0;

const kinds = (found: string[]): string => [...new Set(found)].join(", ");

ext.interceptAssistantMessage(({ text }) => {
  const m = mask(text);
  if (!m.found.length) return;
  redactions += m.found.length;
  return { replaceText: m.text, reason: `masked ${kinds(m.found)}` };
});

ext.interceptToolResult(({ toolName, content }) => {
  const found: string[] = [];
  const replaced = content.map((block) => {
    if (block.type !== "text") return block;
    const m = mask(block.text);
    found.push(...m.found);
    return { type: "text" as const, text: m.text };
  });
  if (!found.length) return;
  redactions += found.length;
  ext.notify("warn", `masked ${kinds(found)} in ${toolName} output`);
  return { replaceContent: replaced, reason: `masked ${kinds(found)}` };
});

ext.command("redact", "show how many secrets were masked this session", () => display(`redact: ${redactions} secret(s) masked this session`));

void ext.run();
