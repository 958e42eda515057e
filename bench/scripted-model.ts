// The benchmarks' model: a local Anthropic-format server whose step k of a prompt answers with a
// tool call until `steps` is reached, then with text. `steps` and the tool come from the prompt
// ("steps=N tool=read"), so one server serves every scenario. It counts its own handler time so
// benchmarks can subtract it from zot's.
import { anthropicEvents, type TurnReply } from "../test/helpers/provider-server.ts";

type Body = { model: string; messages: { role: string; content: string | { type: string; text?: string }[] }[] };

export type ScriptedModel = { base: string; serverNs: () => bigint; stop: () => void };

export function startScriptedModel(): ScriptedModel {
  let serverNs = 0n;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const t0 = process.hrtime.bigint();
      const body = (await req.json()) as Body;
      const first = body.messages[0]!;
      const text = typeof first.content === "string" ? first.content : (first.content.find((c) => c.type === "text")?.text ?? "");
      const steps = Number(/steps=(\d+)/.exec(text)?.[1] ?? "2");
      const tool = /tool=(\w+)/.exec(text)?.[1] ?? "bash";
      const step = body.messages.filter((m) => m.role === "assistant").length + 1;
      const reply: TurnReply =
        step < steps
          ? { kind: "turn", toolCalls: [{ id: `toolu_${step}`, name: tool, args: tool === "bash" ? { command: "true" } : { path: "small.txt" } }] }
          : { kind: "turn", text: "Done." };
      const out = new Response(anthropicEvents(reply, body.model).join(""), { headers: { "content-type": "text/event-stream" } });
      serverNs += process.hrtime.bigint() - t0;
      return out;
    },
  });
  return { base: `http://127.0.0.1:${server.port}`, serverNs: () => serverNs, stop: () => server.stop(true) };
}
