// Native deferred tools on the Anthropic wire (tool search's client-side form, hand-built from the
// documented format: docs "Tool search tool"): deferred tools are declared with defer_loading and
// an activation is expanded with tool_reference blocks, so the tool list never changes. Other wires
// never see a tool before it is activated.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import type { Runtime } from "../../../src/runtime/runtime.ts";
import { createRuntime, type RuntimeOptions } from "../../../src/runtime/setup.ts";
import { testRuntimeOptions } from "../../helpers/mock-runtime.ts";
import { startProviderServer, type ProviderServer, type Reply } from "../../helpers/provider-server.ts";
import { tempDir } from "../../helpers/temp.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const TOOLBOX = join(ROOT, "test", "fixtures", "agent", "toolbox");
process.env.PATH = `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`;
const KEY = "sk-ant-test-0123456789abcdef";

type Tool = { name: string; defer_loading?: boolean; cache_control?: unknown };
type Block = { type: string; tool_use_id?: string; content?: { type: string; tool_name?: string; text?: string }[] };
type Body = { tools?: Tool[]; messages: { role: string; content: Block[] }[]; model: string };

let home: string;
let server: ProviderServer;
const runtimes: Runtime[] = [];
beforeEach(() => {
  home = tempDir("zot-defer-");
});
afterEach(async () => {
  for (const r of runtimes.splice(0)) await r.close();
  await server?.stop();
});

async function runtime(provider: "anthropic" | "openai", model: string, replies: Reply[], extra: Partial<RuntimeOptions> = {}): Promise<Runtime> {
  server = startProviderServer({ replies });
  const baseUrl = provider === "anthropic" ? server.url : server.openaiBase;
  const created = await createRuntime(testRuntimeOptions(home, { provider, model, apiKey: KEY, baseUrl, maxSteps: 10, ext: [TOOLBOX], ...extra }));
  if (!created.ok) throw new Error(created.error);
  runtimes.push(created.runtime);
  return created.runtime;
}

const bodies = () => server.requests.map((r) => r.body as Body);
const LOADER_THEN_SECRET: Reply[] = [
  { kind: "turn", toolCalls: [{ id: "c1", name: "loader", args: {} }] },
  { kind: "turn", toolCalls: [{ id: "c2", name: "secret", args: {} }] },
  { kind: "turn", text: "It is 42." },
];

describe("Anthropic defer_loading", () => {
  test("a deferred tool is declared hidden from the first request on, and its activation is a tool_reference in the result", async () => {
    const rt = await runtime("anthropic", "claude-sonnet-5-5", LOADER_THEN_SECRET);
    expect(await rt.prompt("what is the secret?")).toMatchObject({ stop: "end_turn", text: "It is 42." });
    const [first, second, third] = bodies();
    for (const b of [first!, second!, third!]) {
      const secret = b.tools!.find((t) => t.name === "secret")!;
      expect(secret.defer_loading).toBe(true);
      expect(b.tools!.at(-1)!.name).toBe("secret");
      // The cache breakpoint is on the last tool the model always sees, never on a hidden one.
      expect(b.tools!.filter((t) => t.cache_control).map((t) => t.name)).toEqual([b.tools!.filter((t) => !t.defer_loading).at(-1)!.name]);
    }
    expect(second!.tools).toEqual(first!.tools);
    const result = second!.messages.flatMap((m) => m.content).find((c) => c.type === "tool_result" && c.tool_use_id === "c1")!;
    expect(result.content).toEqual([
      { type: "text", text: "loaded secret" },
      { type: "tool_reference", tool_name: "secret" },
    ]);
    const secretResult = third!.messages.flatMap((m) => m.content).find((c) => c.type === "tool_result" && c.tool_use_id === "c2")!;
    expect(secretResult.content).toEqual([{ type: "text", text: "the secret is 42" }]);
  });

  test("a model without native deferral gets the tool only once it is activated", async () => {
    const rt = await runtime("openai", "gpt-6.2-sol", LOADER_THEN_SECRET, { wire: "chat" });
    await rt.prompt("what is the secret?");
    const names = bodies().map((b) => ((b.tools ?? []) as unknown as { function: { name: string } }[]).map((t) => t.function.name));
    expect(names[0]).not.toContain("secret");
    expect(names[1]).toContain("secret");
  });
});
