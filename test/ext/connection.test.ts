// Handshake, registration window and load failures, each against a real fixture process.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, start } from "./fixture-host.ts";
import { elements } from "../helpers/elements.ts";
import { tempDir } from "../helpers/temp.ts";

const state = (h: Awaited<ReturnType<typeof start>>, name: string) => h.host.states().find((s) => s.name === name)!;

describe("handshake", () => {
  test("an extension that never says hello fails with 'no hello within' and is killed", async () => {
    const h = await start(["silent"], { helloMs: 400 });
    try {
      const s = state(h, "silent");
      expect(s.status).toBe("failed");
      expect(s.error).toContain("no hello within 0.4 s");
      expect(s.error).toContain(s.log);
      expect(h.report.errors.map((e) => e.extension)).toEqual(["silent"]);
    } finally {
      await h.close();
    }
  });

  test("an extension that exits before hello reports its exit code and log path", async () => {
    const h = await start(["exit-early"]);
    try {
      const s = state(h, "exit-early");
      expect(s.status).toBe("failed");
      expect(s.error).toContain("exited before hello with exit code 3");
      expect(s.error).toContain(s.log);
      expect(h.log("exit-early")).toContain("fatal: missing config");
    } finally {
      await h.close();
    }
  });

  test("an extension killed by a signal before hello reports the signal name", async () => {
    const h = await start(["killed"]);
    try {
      expect(state(h, "killed").error).toContain("signal SIGKILL");
    } finally {
      await h.close();
    }
  });

  test("a first line that is not JSON fails the load, quoting at most 120 characters", async () => {
    const h = await start(["garbage"]);
    try {
      const s = state(h, "garbage");
      expect(s.status).toBe("failed");
      const quoted = s.error!.match(/got: "([^"]*)"…/);
      expect(quoted?.[1]).toHaveLength(120);
      expect(quoted![1]!.startsWith("Starting weather server")).toBe(true);
    } finally {
      await h.close();
    }
  });

  test("a valid frame other than hello as the first line fails the load", async () => {
    const h = await start(["notify-first"]);
    try {
      const s = state(h, "notify-first");
      expect(s.status).toBe("failed");
      expect(s.error).toContain(`{\\"type\\":\\"notify\\"`);
      expect(h.intents.filter((i) => i.kind === "notify")).toEqual([]);
    } finally {
      await h.close();
    }
  });

  test("hello.name must equal the manifest name", async () => {
    const h = await start(["mismatch"]);
    try {
      const s = state(h, "mismatch");
      expect(s.status).toBe("failed");
      expect(s.error).toContain(`"someone-else" does not match the manifest name "mismatch"`);
    } finally {
      await h.close();
    }
  });

  test("hello_ack carries protocol version, host facts, directories and capabilities; the env has the ZOT_ variables", async () => {
    const h = await start(["kitchen"]);
    try {
      const note = await h.intent((i) => i.kind === "notify" && i.message.startsWith("ack "));
      const seen = JSON.parse((note as { message: string }).message.slice(4));
      const dir = state(h, "kitchen").dir;
      expect(seen.ack).toEqual({
        type: "hello_ack",
        protocol_version: 1,
        zot_version: "9.9.9",
        provider: "test-provider",
        model: "test-model",
        cwd: h.home,
        extension_dir: dir,
        data_dir: dir,
        capabilities: [
          "fail_closed_intercept",
          "tool_result_intercept",
          "tool_progress",
          "tool_cancel",
          "panel_resize",
          "settings_changed",
          "todo_event",
          "agents",
        ],
      });
      expect(seen.env).toEqual({ home: h.home, ext: dir, data: dir, cwd: h.home, pwd: dir });
      expect(h.log("kitchen")).toMatch(/^\[zot\] starting kitchen 1\.0\.0 at \d{4}-\d\d-\d\dT/);
    } finally {
      await h.close();
    }
  });
});

describe("registration", () => {
  test("registrations sent before reading hello_ack are accepted", async () => {
    const before = performance.now();
    const h = await start(["eager"]);
    const wall = performance.now() - before;
    try {
      const s = state(h, "eager");
      expect(s.status).toBe("ready");
      expect(s.commands).toEqual(["eager-cmd"]);
      expect(s.tools).toEqual([{ name: "eager_tool", deferred: false }]);
      expect(s.events).toEqual(["turn_start"]);
      expect(s.version).toBe("1.0.0");
      // Measured from spawn to registration: within the time the whole load took.
      expect(s.startupMs).toBeGreaterThan(0);
      expect(s.startupMs!).toBeLessThanOrEqual(wall);
    } finally {
      await h.close();
    }
  });

  test("an extension that registers but never sends ready is auto_ready after the silence window", async () => {
    const h = await start(["legacy"]);
    try {
      const s = state(h, "legacy");
      expect(s.status).toBe("auto_ready");
      expect(s.commands).toEqual(["Legacy"]);
      expect(h.log("legacy")).toContain("auto_ready");
    } finally {
      await h.close();
    }
  });

  test("an extension that registers nothing is auto_ready after the hello deadline", async () => {
    const h = await start(["hello-only"], { readyMaxMs: 300 });
    try {
      const s = state(h, "hello-only");
      expect(s.status).toBe("auto_ready");
      expect(s.commands).toEqual([]);
    } finally {
      await h.close();
    }
  });

  test("slow registrations after hello_ack with pauses inside the silence window all count", async () => {
    // A wide silence window so a stall of this shared machine cannot end registration early.
    const h = await start(["slow-reg"], { readyGraceMs: 1500 });
    try {
      const s = state(h, "slow-reg");
      expect(s.status).toBe("ready");
      expect(s.commands).toEqual(["slow0", "slow1", "slow2"]);
    } finally {
      await h.close();
    }
  });

  test("registrations after ready are usable at once and announced as registry_changed", async () => {
    const h = await start(["kitchen"]);
    try {
      expect(h.host.commands().some((c) => c.name === "latecmd")).toBe(false);
      const r = await h.host.invokeCommand("addlate", "");
      expect(r.ok).toBe(true);
      await h.intent((i) => i.kind === "registry_changed");
      expect(h.host.commands().find((c) => c.name === "latecmd")?.extension).toBe("kitchen");
      expect(h.host.tools().find((t) => t.name === "late_tool")?.active).toBe(true);
      expect(state(h, "kitchen").commands).toContain("latecmd");
    } finally {
      await h.close();
    }
  });

  test("the manifest version wins over hello's, which fills in when the manifest has none", async () => {
    const h = await start(["legacy", "hello-only"], { readyMaxMs: 300 });
    try {
      expect(state(h, "legacy").version).toBe("1.0.0");
      expect(state(h, "hello-only").version).toBe("0.3.0");
    } finally {
      await h.close();
    }
  });
});

describe("hostile output", () => {
  test("malformed lines, unknown frames, CRLF and invalid UTF-8 are warnings; good frames still work", async () => {
    const h = await start(["malformed"]);
    try {
      const s = state(h, "malformed");
      expect(s.status).toBe("ready");
      expect(s.warnings).toContain(`ignored a stdout line that is not JSON: "this is not json"`);
      expect(s.warnings).toContain(`ignored a frame of unknown type "wibble"`);
      expect(s.warnings.some((w) => w.includes("level must be one of"))).toBe(true);
      const notes = h.intents.flatMap((i) => (i.kind === "notify" ? [i.message] : []));
      expect(notes).toEqual(["crlf ok", "bad \uFFFD\uFFFD utf8"]);
      expect(h.log("malformed")).toContain(`[zot] warning: ignored a frame of unknown type "wibble"`);
    } finally {
      await h.close();
    }
  });

  test("a 70 MiB line is dropped with a warning, a 10 MiB line is accepted, and the extension keeps running", async () => {
    // Pushing 80 MiB through a pipe can take a while on a busy machine: keep the 3 s rule out of it.
    const h = await start(["big-lines"], { readyMaxMs: 30_000 });
    try {
      const s = state(h, "big-lines");
      expect(s.status).toBe("ready");
      expect(s.warnings.some((w) => /dropped a 7\d{7}-byte line/.test(w))).toBe(true);
      const notes = h.intents.filter((i) => i.kind === "notify");
      expect(notes.length).toBe(1);
      expect((notes[0] as { message: string }).message.length).toBe(10 * 1024 * 1024);
      const r = await h.host.invokeCommand("alive", "");
      expect(r.ok && r.response.display).toBe("alive");
    } finally {
      await h.close();
    }
  });

  test("200k frames in one burst all arrive, in order", async () => {
    const h = await start(["kitchen"]);
    try {
      const r = await h.host.invokeCommand("flood", "200000");
      expect(r.ok && r.response.display).toBe("flood done");
      const notes = h.intents.flatMap((i) => (i.kind === "notify" && i.message.startsWith("f") ? [i.message] : []));
      expect(notes.length).toBe(200_000);
      expect(notes.every((m, i) => m === `f${i}`)).toBe(true);
    } finally {
      await h.close();
    }
  });

  test("50 MB of stderr lines neither blocks the extension nor the host, and lands in the log", async () => {
    const h = await start(["stderr-flood"]);
    try {
      expect(state(h, "stderr-flood").status).toBe("ready");
      expect(h.log("stderr-flood").length).toBeGreaterThan(50_000_000);
    } finally {
      await h.close();
    }
  });

  test("warnings are capped at 100, the last one saying how many more there were", async () => {
    const { Connection } = await import("../../src/ext/connection/connection.ts");
    const c = new Connection({
      name: "w",
      version: null,
      dir: "/",
      target: { kind: "stdio", exec: "/bin/true", args: [], permissions: null },
      settings: null,
      home: "/nonexistent",
      info: () => ({ zotVersion: "", provider: "", model: "", cwd: "/" }),
      trace: null,
      timings: { helloMs: 1, readyGraceMs: 1, readyMaxMs: 1, lingerMs: 1, maxQueueBytes: 1, maxLineBytes: 1 },
      onRegistration: () => {},
      onIntent: () => {},
      onExit: () => {},
    });
    for (let i = 0; i < 150; i++) c.warn(`w${i}`);
    const w = c.warnings();
    expect(w.length).toBe(100);
    expect(w[98]).toBe("w98");
    expect(w[99]).toContain("51 more warnings");
  });
});

describe("extensions that are not started", () => {
  test("a shadowed copy is never spawned and the shadowing is written to the log of that name", async () => {
    const copy = tempDir("zot-copy-");
    writeFileSync(join(copy, "extension.json"), JSON.stringify({ name: "legacy", exec: "/bin/false" }));
    const h = await start(["legacy", copy]);
    try {
      const [winner, loser] = elements(h.host.states(), 2);
      expect(winner.status).toBe("auto_ready");
      expect(loser).toMatchObject({ status: "shadowed", shadowedBy: join(FIXTURES, "legacy"), startupMs: null });
      expect(h.log("legacy")).toContain(`[zot] not starting ${copy}: shadowed by ${join(FIXTURES, "legacy")}`);
    } finally {
      await h.close();
    }
  });
});

describe("environment", () => {
  test("extensions get the user's environment, provider keys included, but not zot's RPC token", async () => {
    const vars = { ZOTCORE_RPC_TOKEN: "rpc-token-123456", ANTHROPIC_API_KEY: "sk-ant-user-key", ZOT_TEST_USER_VAR: "kept" };
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    Object.assign(process.env, vars);
    try {
      const h = await start(["env-report"]);
      try {
        const i = await h.intent((x) => x.kind === "notify");
        expect(i).toEqual({ kind: "notify", extension: "env-report", level: "info", message: "token=unset key=sk-ant-user-key other=kept" });
        // zot itself keeps its token.
        expect(process.env.ZOTCORE_RPC_TOKEN).toBe("rpc-token-123456");
      } finally {
        await h.close();
      }
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
