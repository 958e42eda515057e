// A $ZOT_HOME the Go zot set up: its subscription login and its saved reasoning level.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useZotHome } from "./zot.ts";
import { elements } from "../helpers/elements.ts";

const e2e = useZotHome();

test("a provider signed in only through the Go zot's subscription fails with a sentence that says so", async () => {
  writeFileSync(join(e2e.home, "auth.json"), JSON.stringify({ anthropic: { oauth: { access_token: "sk-ant-oat01-NOTAKEY", refresh_token: "r" } } }), {
    mode: 0o600,
  });
  const r = await e2e.run(["-p", "--provider", "anthropic", "hi"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("No API key for anthropic");
  expect(r.stderr).toContain("anthropic is signed in with a subscription through the Go zot; zot uses API keys");
  expect(r.stderr).not.toContain("NOTAKEY");
});

test("the reasoning level the Go zot saved in config.json is used when --reasoning is not given", async () => {
  writeFileSync(
    join(e2e.home, "config.json"),
    JSON.stringify({ provider: "anthropic", model: "claude-sonnet-4-5", reasoning: "low", theme: "", inline_images_enabled: true }),
  );
  writeFileSync(join(e2e.home, "auth.json"), JSON.stringify({ anthropic: { api_key: "sk-ant-go-key-1234" } }), { mode: 0o600 });
  const server = e2e.serve({ replies: [{ kind: "turn", text: "ok" }] });
  const r = await e2e.run(["-p", "--base-url", server.url, "hi"]);
  expect(r).toMatchObject({ code: 0, stdout: "ok\n" });
  expect(server.requests[0]!.headers["x-api-key"]).toBe("sk-ant-go-key-1234");
  expect((server.requests[0]!.body as { thinking?: unknown }).thinking).toMatchObject({ type: "enabled" });
});

test("a saved reasoning level the model does not take is left out instead of failing the run", async () => {
  writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ provider: "kimi", model: "kimi-k3", reasoning: "medium" }));
  const server = e2e.serve({ replies: [{ kind: "turn", text: "ok" }] });
  const r = await e2e.run(["-p", "--base-url", server.openaiBase, "hi"], { env: { KIMI_API_KEY: "sk-kimi-go-key-1234" } });
  expect(r).toMatchObject({ code: 0, stdout: "ok\n" });
  expect(server.requests[0]!.body).toMatchObject({ model: "kimi-k3" });
  expect(server.requests[0]!.body).not.toHaveProperty("reasoning_effort");
});

test("--no-skill offers no skill tool and no skills list; --with-skills is accepted and skills stay on", async () => {
  const userHome = join(e2e.home, "user");
  mkdirSync(join(userHome, ".agents", "skills", "tidy"), { recursive: true });
  writeFileSync(join(userHome, ".agents", "skills", "tidy", "SKILL.md"), "---\nname: tidy\ndescription: tidy the repo\n---\nbody\n");
  const server = e2e.serve({
    replies: [
      { kind: "turn", text: "one" },
      { kind: "turn", text: "two" },
    ],
  });
  const flags = ["-p", "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-skills"];
  const on = await e2e.run([...flags, "--with-skills", "hi"], { env: { HOME: userHome } });
  expect(on.code).toBe(0);
  const off = await e2e.run([...flags, "--no-skill", "hi"], { env: { HOME: userHome } });
  expect(off.code).toBe(0);
  type Body = { system: unknown; tools: { name: string }[] };
  const [withSkills, without] = elements(
    server.requests.map((r) => r.body as Body),
    2,
  );
  expect(withSkills.tools.map((t) => t.name)).toContain("skill");
  expect(JSON.stringify(withSkills.system)).toContain("tidy: tidy the repo");
  expect(without.tools.map((t) => t.name)).not.toContain("skill");
  expect(JSON.stringify(without.system)).not.toContain("tidy");
});

test("the SYSTEM.md the Go zot reads replaces zot's default system prompt too", async () => {
  writeFileSync(join(e2e.home, "SYSTEM.md"), "\n  You are Pat's terse pair programmer.\n\n");
  const server = e2e.serve({ replies: [{ kind: "turn", text: "ok" }] });
  const r = await e2e.run(["-p", "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-system", "hi"]);
  expect(r.code).toBe(0);
  const system = JSON.stringify((server.requests[0]!.body as { system: unknown }).system);
  expect(system).toContain("You are Pat's terse pair programmer.");
  expect(system).not.toContain("You are zot");
});
