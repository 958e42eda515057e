// Drains a provider stream into its events and final message, for assertions.
import type { AssistantMessage } from "../../src/agent/messages.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "../../src/agent/provider.ts";

export type Collected = { events: ProviderEvent[]; message: AssistantMessage; text: string; thinking: string };

export async function collect(
  provider: Provider,
  req: Partial<ProviderRequest> & { model: string },
  opts: { signal?: AbortSignal; onEvent?: (e: ProviderEvent) => void } = {},
): Promise<Collected> {
  const full: ProviderRequest = { system: "", messages: [{ role: "user", content: [{ type: "text", text: "hi" }], ts: 0 }], tools: [], ...req };
  const events: ProviderEvent[] = [];
  let message: AssistantMessage | undefined;
  for await (const e of provider.stream(full, opts.signal ?? new AbortController().signal)) {
    events.push(e);
    opts.onEvent?.(e);
    if (e.type === "done") message = e.message;
  }
  if (!message) throw new Error("the stream ended without a done event");
  const text = events.flatMap((e) => (e.type === "text_delta" ? [e.text] : [])).join("");
  const thinking = events.flatMap((e) => (e.type === "thinking_delta" ? [e.text] : [])).join("");
  return { events, message, text, thinking };
}
