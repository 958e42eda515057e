// API keys never leave zot: not on stdout or stderr (print, JSON, RPC), not in transcripts, not in
// extension logs or the frame trace — also when the provider or the model echoes them back.
import { describe, expect, test } from "bun:test";
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, useZotHome } from "./zot.ts";

const KEY = "sk-FAKE-e2e-secret-0123456789abcdef";

const e2e = useZotHome();

/** Every file under $ZOT_HOME (transcripts, logs, config), for a grep. */
function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? allFiles(path) : [path];
  });
}

/** Not the key, and no piece of it beyond the four characters the mask keeps (a key split across streamed deltas). */
function expectNoKeyAnywhere(...outputs: string[]): void {
  for (const text of outputs) for (let i = 4; i + 8 <= KEY.length; i++) expect(text).not.toContain(KEY.slice(i, i + 8));
  // auth.json is where the key belongs; everything else must not hold it.
  for (const file of allFiles(e2e.home).filter((f) => f !== join(e2e.home, "auth.json")))
    expect({ file, leaked: readFileSync(file, "utf8").includes(KEY) }).toEqual({ file, leaked: false });
}

const rejected401 = (provider: "anthropic" | "openai") =>
  provider === "anthropic"
    ? {
        kind: "status" as const,
        status: 401,
        body: JSON.stringify({ type: "error", error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` } }),
      }
    : {
        kind: "status" as const,
        status: 401,
        body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}`, type: "invalid_request_error" } }),
      };

describe("a rejected key", () => {
  test("passed with --api-key and echoed in the 401 body is named nowhere: stderr, transcript, extension log, trace", async () => {
    const server = e2e.serve({ replies: [rejected401("openai")] });
    const trace = join(e2e.home, "trace.jsonl");
    const r = await e2e.run([
      "-p",
      "--provider",
      "openai",
      "--base-url",
      server.openaiBase,
      "--api-key",
      KEY,
      "-e",
      join(FIXTURES, "toolbox"),
      "--ext-trace",
      trace,
      "hello",
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("zot: the API key was rejected by openai");
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(readFileSync(trace, "utf8")).toContain('"turn_end"');
    expectNoKeyAnywhere(r.stdout, r.stderr);
  });

  test("from the environment, in JSON mode, is named nowhere either", async () => {
    const server = e2e.serve({ replies: [rejected401("anthropic")] });
    const r = await e2e.run(["--json", "--provider", "anthropic", "--base-url", server.url, "-e", join(FIXTURES, "toolbox"), "hello"], {
      env: { ANTHROPIC_API_KEY: KEY },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("the API key was rejected by anthropic");
    expectNoKeyAnywhere(r.stdout, r.stderr);
  });
});

describe("a model that echoes the key", () => {
  const echoing = () =>
    e2e.serve({
      replies: [
        { kind: "turn", text: `Found it: ${KEY}.`, toolCalls: [{ name: "bash", args: { command: `echo ${KEY}` } }] },
        { kind: "turn", text: `The key is ${KEY}` },
      ],
    });

  test("print mode masks it on stdout and stderr (the answer, the tool line, the tool output)", async () => {
    const server = echoing();
    const r = await e2e.run(["-p", "--provider", "anthropic", "--base-url", server.url, "--api-key", KEY, "what is my key?"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("The key is sk-F…[redacted]\n");
    expect(r.stderr).toContain("[tool] bash");
    expectNoKeyAnywhere(r.stdout, r.stderr);
    // The model still gets the real output: redaction is for people and logs, not for the conversation.
    expect(JSON.stringify(server.requests[1]!.body)).toContain(KEY);
  });

  test("JSON mode masks it in every event", async () => {
    const server = echoing();
    const r = await e2e.run(["--json", "--provider", "anthropic", "--base-url", server.url, "what is my key?"], { env: { ANTHROPIC_API_KEY: KEY } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("sk-F…[redacted]");
    expectNoKeyAnywhere(r.stdout, r.stderr);
  });

  test("RPC mode masks it in events and in get_messages", async () => {
    const server = echoing();
    const rpc = e2e.rpc(["--provider", "anthropic", "--base-url", server.url, "--api-key", KEY]);
    await rpc.request({ type: "prompt", message: "what is my key?" });
    await rpc.waitFor((f) => f.type === "done");
    const messages = await rpc.request({ type: "get_messages" });
    expect(JSON.stringify(messages)).toContain("sk-F…[redacted]");
    const { code, stderr } = await rpc.close();
    expect(code).toBe(0);
    expectNoKeyAnywhere(JSON.stringify(rpc.frames), stderr);
  });
});

describe("auth.json", () => {
  test("is used when private, and refused with a chmod hint when others can read it", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "keyed" }] });
    const auth = join(e2e.home, "auth.json");
    writeFileSync(auth, JSON.stringify({ anthropic: { type: "api_key", key: KEY } }), { mode: 0o600 });
    chmodSync(auth, 0o600);
    const ok = await e2e.run(["-p", "--provider", "anthropic", "--base-url", server.url, "hi"]);
    expect(ok).toMatchObject({ code: 0, stdout: "keyed\n" });
    expect(server.requests[0]!.headers["x-api-key"]).toBe(KEY);

    chmodSync(auth, 0o644);
    const refused = await e2e.run(["-p", "--provider", "anthropic", "--base-url", server.url, "hi"]);
    expect(refused.code).toBe(2);
    expect(server.requests.length).toBe(1);
    // Without --provider, no key is found anywhere: zot says why the file was ignored, and answers nothing.
    const fallback = await e2e.run(["-p", "hi"]);
    expect(fallback).toMatchObject({ code: 2, stdout: "" });
    expect(fallback.stderr).toContain(`Ignoring ${auth}: it is readable by other users (mode 644); run \`chmod 600 ${auth}\` to use the keys in it.`);
    expectNoKeyAnywhere(ok.stderr, refused.stdout, refused.stderr, fallback.stderr);
  });
});
