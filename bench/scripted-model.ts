// The benchmarks' model: a local Anthropic-format server whose step k of a prompt answers with a
// tool call until `steps` is reached, then with text. The script comes from the latest prompt (the
// last user message with text; steps count the assistant messages after it, so a resumed session's
// history doesn't change the script), so one server serves every scenario: "steps=N tool=read" (the same tool N-1 times) or "tools=bash,read"
// (those tools in order, then text); `bash` runs `echo ok`, `edit` changes NEEDLE-IN-THE-MIDDLE in big.txt. It counts its own handler time so
// benchmarks can subtract it from zot's. It speaks the Anthropic wire at <base>/v1/messages and the
// OpenAI ones at <base>/v1/chat/completions and <base>/v1/responses (whose history is `input`,
// where a tool call is an item of its own).
import { anthropicEvents, openaiEvents, responsesEvents, type ToolCallSpec, type TurnReply } from "../test/helpers/provider-server.ts";

type Item = { role?: string; type?: string; content?: string | { type: string; text?: string }[] };
type Body = { model: string; messages?: Item[]; input?: Item[] };

/** The arguments of each tool the script can call; `read` (and any other) reads small.txt. */
const ARGS: Record<string, ToolCallSpec["args"]> = {
  bash: { command: "echo ok" },
  edit: { path: "big.txt", edits: [{ oldText: "NEEDLE-IN-THE-MIDDLE", newText: "NEEDLE-CHANGED" }] },
};

export type ScriptedModel = { base: string; serverNs: () => bigint; stop: () => void };

/** `onRequest`: called as each model request arrives, before it is read (bench/first-request.ts times them). */
export function startScriptedModel(onRequest?: () => void): ScriptedModel {
  let serverNs = 0n;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      // zot's live model discovery (cached 6 h in $ZOT_HOME, so only a benchmark's first run asks).
      if (req.method === "GET") return Response.json({ data: [{ id: "claude-sonnet-4-5", display_name: "Claude Sonnet 4.5" }] });
      onRequest?.();
      const t0 = process.hrtime.bigint();
      const body = (await req.json()) as Body;
      const messages = body.messages ?? body.input ?? [];
      const textOf = (m: Item): string | undefined =>
        typeof m.content === "string" ? m.content : m.content?.find((c) => c.type === "text" || c.type === "input_text")?.text;
      let at = messages.length - 1;
      while (at > 0 && !(messages[at]!.role === "user" && textOf(messages[at]!))) at--;
      const text = textOf(messages[at]!) ?? "";
      const sequence = /tools=([\w,]+)/.exec(text)?.[1]?.split(",");
      const steps = sequence ? sequence.length + 1 : Number(/steps=(\d+)/.exec(text)?.[1] ?? "2");
      const step = messages.slice(at).filter((m) => m.role === "assistant" || m.type === "function_call").length + 1;
      const tool = sequence?.[step - 1] ?? /tool=(\w+)/.exec(text)?.[1] ?? "bash";
      const reply: TurnReply =
        step < steps
          ? { kind: "turn", toolCalls: [{ id: `toolu_${step}`, name: tool, args: ARGS[tool] ?? { path: "small.txt" } }] }
          : { kind: "turn", text: "Done." };
      const path = new URL(req.url).pathname;
      const events = path.endsWith("/chat/completions") ? openaiEvents : path.endsWith("/responses") ? responsesEvents : anthropicEvents;
      const out = new Response(events(reply, body.model).join(""), { headers: { "content-type": "text/event-stream" } });
      serverNs += process.hrtime.bigint() - t0;
      return out;
    },
  });
  return { base: `http://127.0.0.1:${server.port}`, serverNs: () => serverNs, stop: () => server.stop(true) };
}
