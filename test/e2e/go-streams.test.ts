// `zot --json` and `zot rpc` are supersets of the Go zot's streams: the same scenarios the Go zot was
// recorded running (test/fixtures/zot-go) run against zot, and every Go event and response must be
// there with each of its fields under the same name, with the same JSON type and, where the run is
// deterministic, the same value.
import { beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../helpers/provider-server.ts";
import { jsonLines, ROOT, useZotHome } from "./zot.ts";

type Obj = Record<string, unknown>;
const GO = join(ROOT, "test/fixtures/zot-go");
const goLines = (name: string): Obj[] => jsonLines(readFileSync(join(GO, name), "utf8"));

/** Values that depend only on the scenario, not on the program, timing or tool output format. */
const SAME_VALUE = new Set([
  "type",
  "step",
  "stop",
  "id",
  "name",
  "args",
  "is_error",
  "input",
  "output",
  "cache_read",
  "cache_write",
  "cost_usd",
  "command",
  "success",
  "protocol_version",
  "provider",
  "model",
  "busy",
  "message_count",
  "role",
  "call_id",
  "pong",
  "started",
]);

function jsonType(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

/** Every field of the Go value is in zot's, same name and JSON type, and same value where deterministic. */
function expectSuperset(go: unknown, zot: unknown, where: string): void {
  expect({ where, type: jsonType(zot) }).toEqual({ where, type: jsonType(go) });
  if (Array.isArray(go) && Array.isArray(zot)) {
    go.forEach((g, i) => expectSuperset(g, zot[i], `${where}[${i}]`));
    return;
  }
  if (jsonType(go) !== "object") return;
  const z = zot as Obj;
  for (const [k, v] of Object.entries(go as Obj)) {
    expect({ where, has: k in z }).toEqual({ where, has: true });
    if (SAME_VALUE.has(k) && jsonType(v) !== "object" && jsonType(v) !== "array")
      expect({ where: `${where}.${k}`, value: z[k] }).toEqual({ where: `${where}.${k}`, value: v });
    else if (k === "args") expect(z[k]).toEqual(v);
    else expectSuperset(v, z[k], `${where}.${k}`);
  }
}

/** The k-th Go event of each type against the k-th zot event of that type. */
function expectEventsSuperset(goEvents: Obj[], zotEvents: Obj[]): void {
  const seen = new Map<string, number>();
  for (const g of goEvents) {
    const type = String(g.type);
    const k = seen.get(type) ?? 0;
    seen.set(type, k + 1);
    const z = zotEvents.filter((e) => e.type === type)[k];
    expect({ type, k, present: z !== undefined }).toEqual({ type, k, present: true });
    expectSuperset(g, z, `${type}#${k}`);
  }
}

/** The Go recording's scenario: the model runs `echo hello-from-tool` with bash, then answers. */
const echoScenario = (id: string): Reply[] => [
  { kind: "turn", toolCalls: [{ id, name: "bash", args: { command: "echo hello-from-tool" } }], usage: { input: 100, output: 10 } },
  { kind: "turn", text: "done: hello-from-tool", usage: { input: 100, output: 10 } },
];

const e2e = useZotHome();
beforeEach(() => {
  // The Go zot was recorded on Claude Sonnet 4.5, since retired from zot's built-in catalog: its
  // prices come from models.json, so the cost figures can match the recording's.
  writeFileSync(
    join(e2e.home, "models.json"),
    JSON.stringify({ anthropic: [{ id: "claude-sonnet-4-5", priceInput: 3, priceOutput: 15, priceCacheRead: 0.3, priceCacheWrite: 3.75 }] }),
  );
});

const flags = () => ["--provider", "anthropic", "--model", "claude-sonnet-4-5", "--base-url", e2e.server.url, "--api-key", "sk-test-go"];

describe("zot --json", () => {
  test("carries every event and field of the Go zot's stream for a tool run", async () => {
    e2e.serve({ replies: echoScenario("toolu_mock_1") });
    const r = await e2e.run(["--json", ...flags(), "run the scenario"]);
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout);
    expectEventsSuperset(goLines("json-echo.jsonl"), events);
    expect(events.filter((e) => e.type === "turn_end").map((e) => [e.stop, e.reason])).toEqual([
      ["tool_use", "tool_use"],
      ["end", "end_turn"],
    ]);
    expect(
      events
        .filter((e) => e.type === "text_delta")
        .map((e) => e.delta)
        .join(""),
    ).toBe("done: hello-from-tool");
    expect(events.filter((e) => e.type === "usage").at(-1)).toMatchObject({ cumulative: { input: 200, output: 20, cost_usd: 0.0009 } });
    expect(events.at(-1)).toMatchObject({ type: "done" });
  });

  test("a failing provider ends like the Go zot's: turn_end with stop error, then an error event", async () => {
    e2e.serve({
      fallback: { kind: "status", status: 400, body: JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "bad request" } }) },
    });
    const r = await e2e.run(["--json", ...flags(), "run the scenario"]);
    expect(r.code).toBe(1);
    const events = jsonLines(r.stdout);
    expectEventsSuperset(goLines("json-error.jsonl"), events);
    const types = events.map((e) => e.type);
    expect(types.slice(types.indexOf("turn_end"))).toEqual(["turn_end", "error", "done"]);
    const end = events.find((e) => e.type === "turn_end") as Obj;
    expect(end.stop).toBe("error");
    expect(events.find((e) => e.type === "error")?.message).toBe(end.error);
  });
});

describe("zot rpc", () => {
  test("answers the Go zot's recorded conversation with a superset of its responses and events", async () => {
    e2e.serve({ replies: echoScenario("toolu_mock_9") });
    const rpc = e2e.rpc(flags());
    const goOut = goLines("rpc-output.jsonl");
    const input = readFileSync(join(GO, "rpc-input.jsonl"), "utf8").trim().split("\n");
    try {
      for (const line of input) {
        rpc.writeLine(line);
        let id: unknown;
        try {
          id = (JSON.parse(line) as Obj).id;
        } catch {
          id = undefined;
        }
        const response = await rpc.waitFor((f) => f.type === "response" && (id === undefined ? f.command === "" : f.id === id));
        if (id === "3") await rpc.waitFor((f) => f.type === "done");
        const go = goOut.find((f) => f.type === "response" && (id === undefined ? f.command === "" : f.id === id)) as Obj;
        // The Go zot has no session in RPC mode; zot's state and messages carry the same fields and more.
        expectSuperset(go, response, `response ${String(id ?? "(not json)")}`);
      }
      const events = rpc.frames.filter((f) => f.type !== "response");
      expectEventsSuperset(
        goOut.filter((f) => f.type !== "response"),
        events,
      );
    } finally {
      await rpc.close();
    }
  });
});
