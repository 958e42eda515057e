// A long session's transcript for the benchmarks that resume one (bench/resume-scale.ts,
// bench/stream-cpu.ts): ~4.8 KB a message — prompts, replies, bash calls and their 10 KB outputs,
// as a coding session has them — in the Go zot's row format, which zot reads as its own.
import { writeFileSync } from "node:fs";

/** The text the transcript's last message ends with: on screen, the resumed chat is drawn to its end. */
export const MARK = "END-OF-HISTORY-MARK";

/** A transcript of `messages` messages in the Go zot's row format; written to `path`; its last message ends with MARK. */
export function transcript(path: string, messages: number): void {
  const t = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  const rows = [
    JSON.stringify({
      type: "meta",
      meta: { id: "00000000-0000-4000-8000-000000000000", cwd: "/p", provider: "anthropic", model: "claude-sonnet-4-5", started: t(0), version: "0.2.0" },
    }),
  ];
  const prose = "The loader reads every file and merges them; validate the schema first, then apply the overrides. ".repeat(10);
  const output = "src/config.ts:12:export function load(path: string): Config { return JSON.parse(readFileSync(path)); }\n".repeat(120);
  const usage = { input_tokens: 1000, output_tokens: 200, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: 0.001 };
  for (let i = 0; i < messages; i++) {
    const last = i === messages - 1;
    const kind = last ? 3 : i % 4;
    const id = `toolu_${i}`;
    let message: object;
    if (kind === 0) message = { role: "user", content: [{ text: `step ${i}: look at the config loader. ${prose}` }], time: t(i) };
    else if (kind === 1)
      message = {
        role: "assistant",
        content: [{ text: prose.slice(0, 600) }, { id, name: "bash", arguments: { command: `rg -n load src | head -${i % 50}` } }],
        time: t(i),
        stop: "tool_use",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage,
      };
    else if (kind === 2)
      message = { role: "tool", content: [{ call_id: `toolu_${i - 1}`, content: [{ text: output }], is_error: false, name: "bash" }], time: t(i) };
    else
      message = {
        role: "assistant",
        content: [{ text: `${prose.repeat(4)}\n\n${last ? MARK : "done"}` }],
        time: t(i),
        stop: "end_turn",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage,
      };
    rows.push(JSON.stringify({ type: "message", message }));
  }
  writeFileSync(path, rows.join("\n") + "\n");
}
