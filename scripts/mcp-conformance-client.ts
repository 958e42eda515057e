// The client under test of `scripts/mcp-conformance.ts`: zot's MCP client driven the way a zot run
// drives it, for one scenario of the official conformance suite (`@modelcontextprotocol/conformance`).
// The suite starts its scenario server and runs `bun scripts/mcp-conformance-client.ts <url>` with
// MCP_CONFORMANCE_SCENARIO and, for some scenarios, MCP_CONFORMANCE_CONTEXT (credentials, tool calls).
//
// What it does is what a user of zot does: the server is an entry of a real server list in a temporary
// $ZOT_HOME (with the `oauth` entry the scenario's context calls for); it starts as a run starts it;
// when the start or a call says the server needs login, it runs `zot mcp login`'s flow (the test
// plays the browser by fetching the printed URL, which the suite's authorization server redirects
// straight back) and starts again, at most three times; then every tool is called (with the
// scenario's arguments, or ones made from the schema), every prompt got and every resource read.
// An elicitation is answered as the TUI's form is when the user presses Enter (its defaults).
// Exit status 0 when the server started and was used, 1 when it did not start or still needed login;
// what its tools answered is the scenario's business (the suite judges by its own checks).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isObject } from "../src/json.ts";
import type { Json, JsonObject } from "../src/protocol.ts";
import { unmasked } from "../src/ext/mask.ts";
import { loadConfig } from "../src/mcp/config.ts";
import { ElicitForm } from "../src/mcp/elicit.ts";
import { login } from "../src/mcp/oauth/login.ts";
import { McpServer } from "../src/mcp/server.ts";

const url = process.argv.at(-1) ?? "";
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context: JsonObject = parseContext(process.env.MCP_CONFORMANCE_CONTEXT);
const root = mkdtempSync(join(tmpdir(), "zot-conformance-"));
const home = join(root, "home");
const say = (line: string) => process.stderr.write(`[zot-conformance] ${line}\n`);

function parseContext(raw: string | undefined): JsonObject {
  if (!raw) return {};
  try {
    const v: unknown = JSON.parse(raw);
    return isObject(v) ? v : {};
  } catch {
    return {};
  }
}

const str = (v: Json | undefined): string | undefined => (typeof v === "string" ? v : undefined);

/** The `oauth` entry a user would write for this scenario's server. */
function oauthEntry(): JsonObject | null {
  const id = str(context.client_id);
  if (scenario.startsWith("auth/client-credentials")) {
    const key = str(context.private_key_pem);
    return {
      grant_type: "client_credentials",
      client_id: id ?? "",
      ...(key
        ? { private_key: key, ...(str(context.signing_algorithm) ? { signing_algorithm: str(context.signing_algorithm) ?? "" } : {}) }
        : { client_secret: str(context.client_secret) ?? "" }),
    };
  }
  // The suite's CIMD scenario expects this fixed metadata document URL as the client id.
  if (scenario === "auth/basic-cimd") return { client_id: "https://conformance-test.local/client-metadata.json" };
  if (id) return { client_id: id, ...(str(context.client_secret) ? { client_secret: str(context.client_secret) ?? "" } : {}) };
  return null;
}

function elicitDefaults(message: string, schema: JsonObject) {
  const form = new ElicitForm("conformance", "conformance", message, schema);
  return Promise.resolve(form.key("enter") ?? { action: "decline" as const });
}

/** `zot mcp login conf`, with this script as the browser. */
async function logIn(file: string, oauth: JsonObject | null): Promise<boolean> {
  let visit: Promise<unknown> = Promise.resolve();
  const r = await login({
    name: "conf",
    url,
    ...(oauth
      ? {
          oauth: {
            ...(str(oauth.client_id) ? { clientId: str(oauth.client_id) ?? "" } : {}),
            ...(str(oauth.client_secret) ? { clientSecret: str(oauth.client_secret) ?? "" } : {}),
          },
        }
      : {}),
    file,
    home,
    env: {},
    timeoutMs: 20_000,
    say: (line) => {
      say(line);
      const link = /\n\n {2}(\S+)\n/.exec(line)?.[1];
      if (link)
        visit = fetch(link).then(
          (res) => res.text(),
          (e: Error) => say(`the browser could not open the URL: ${e.message}`),
        );
    },
  });
  await visit;
  if (!r.ok) say(`login failed: ${r.error}`);
  return r.ok;
}

/** Arguments for a tool: the scenario's, else a value for each required property (its default, example or a typed placeholder). */
function argumentsFor(name: string, schema: JsonObject, schemas: Map<string, JsonObject>): JsonObject {
  const calls = Array.isArray(context.toolCalls) ? context.toolCalls.filter(isObject) : [];
  const given = calls.find((c) => c.name === name);
  if (given && isObject(given.arguments)) return given.arguments;
  if (name === "add_numbers") return { a: 5, b: 3 };
  // The 2020-12 preservation scenario wants another tool's schema echoed back verbatim.
  if (name === "json_schema_echo") {
    const other = [...schemas.entries()].find(([n]) => n !== name);
    if (other) return { schema: other[1] };
  }
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const out: JsonObject = {};
  for (const [key, p] of Object.entries(props)) {
    if (!isObject(p) || !required.includes(key)) continue;
    if (p.default !== undefined) out[key] = p.default;
    else if (Array.isArray(p.examples) && p.examples.length > 0) out[key] = p.examples[0] ?? null;
    else if (Array.isArray(p.enum) && p.enum.length > 0) out[key] = p.enum[0] ?? null;
    else
      out[key] =
        p.type === "integer" || p.type === "number" ? 1 : p.type === "boolean" ? true : p.type === "object" ? {} : p.type === "array" ? [] : "conformance";
  }
  return out;
}

const needsLogin = (text: string | null | undefined) => typeof text === "string" && text.includes("needs login");

async function main(): Promise<number> {
  const oauth = oauthEntry();
  const file = join(home, "mcp.json");
  mkdirSync(home, { recursive: true });
  writeFileSync(file, JSON.stringify({ mcpServers: { conf: { type: "http", url, ...(oauth ? { oauth } : {}) } } }, null, 2));
  const { servers } = loadConfig({ files: [], none: false, cwd: root, home, env: process.env, trust: "all" });
  const config = servers[0];
  if (!config) {
    say("the server list has no server");
    return 1;
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const server = new McpServer(config, {
      home,
      cwd: root,
      mask: unmasked,
      elicit: elicitDefaults,
      remembered: null,
      remember: () => {},
      changed: () => {},
      exited: (m) => say(m),
      graceMs: 500,
      killAfterMs: 500,
      notify: (m) => say(`notice: ${m}`),
      onSecret: () => {},
    });
    await server.start();
    const st = server.state();
    say(
      `start: ${st.status}${st.error ? ` (${st.error})` : ""}; ${st.era ?? "-"} ${st.protocolVersion ?? ""}; tools ${st.tools.map((t) => t.remote).join(", ") || "none"}`,
    );
    for (const w of st.warnings) say(`warning: ${w}`);
    if (st.status !== "ready") {
      await server.stop();
      if (needsLogin(st.error) && (await logIn(file, oauth))) continue;
      return 1;
    }
    let again = false;
    const schemas = new Map(server.tools.map((t) => [t.remote, t.schema]));
    for (const tool of server.tools) {
      const r = await server.callTool(tool, argumentsFor(tool.remote, tool.schema, schemas), { signal: new AbortController().signal });
      const text = r.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join(" ");
      say(`tools/call ${tool.remote}: ${r.isError ? "error" : "ok"}: ${text.slice(0, 300)}`);
      if (r.isError && needsLogin(text)) again = true;
    }
    for (const p of server.prompts) {
      const args = Object.fromEntries(p.arguments.map((a) => [a.name, "conformance"]));
      const r = await server.getPrompt(p, args);
      say(`prompts/get ${p.remote}: ${r.ok ? "ok" : r.error}`);
    }
    for (const res of server.resources) {
      const r = await server.readResource(res.uri);
      say(`resources/read ${res.uri}: ${r.ok ? "ok" : r.error}`);
    }
    await server.stop();
    if (again && (await logIn(file, oauth))) continue;
    return again ? 1 : 0;
  }
  say("gave up after three logins");
  return 1;
}

let code = 1;
try {
  code = await main();
} catch (e) {
  say(`crashed: ${(e as Error).stack ?? String(e)}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(code);
