// MCP servers in the interactive mode, in a real terminal (tmux): --no-yolo confirmation of an MCP
// tool call with its untrusted annotations shown, the [mcp:<server>] attribution, an elicitation
// answered in a form panel, a prompt run as a slash command, and the notice for an HTTP server that
// needs an OAuth login and the /mcp-login that logs in to it (and asks for more scope after a 403
// insufficient_scope).
import { beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES as AGENT_FIXTURES, sessionFiles } from "../e2e/zot.ts";
import { startMcpHttpServer } from "../helpers/mcp-http-server.ts";
import { protect, startAuthServer, type AuthServer } from "../helpers/oauth-server.ts";
import { useTmux } from "../tui/helpers/tmux.ts";
import { LEGACY, MCP_FIXTURES, MODERN, writeList } from "./helpers.ts";
import { tempDir } from "../helpers/temp.ts";

const tui = useTmux();
let dir: string;
let list: string;

beforeAll(() => {
  dir = tempDir("zot-mcp-tui-");
  list = writeList(join(dir, "servers.json"), { fx: { command: "python3", args: [LEGACY] }, nu: { command: "python3", args: [MODERN] } });
});

const T = 40_000;

test(
  "--no-yolo asks before an MCP tool runs, shows its annotations as the server's claim, and attributes the call",
  async () => {
    const t = await tui.start({ args: ["--mcp", list], mode: "ask" });
    await t.waitFor("Ask anything", 20_000);
    t.send('call mcp__fx__echo {"text":"from the tui"}');
    const dialog = await t.waitFor("Allow mcp__fx__echo [mcp:fx]?", 20_000);
    expect(dialog).toContain("mcp__fx__echo");
    expect(dialog).toContain("(server says: readOnly)");
    t.keys("1");
    const s = await t.waitFor("mock: tool mcp__fx__echo returned: echo: from the tui", 20_000);
    expect(s).toContain("[mcp:fx]");
  },
  T,
);

test(
  "an interceptor blocks an MCP call in the TUI and the reason is shown with the attribution",
  async () => {
    const t = await tui.start({
      args: ["--mcp", list, "-e", join(AGENT_FIXTURES, "guard")],
      env: { ZOT_TEST_GUARD: JSON.stringify({ intercept: ["tool_call"], block_command: "forbidden" }) },
    });
    await t.waitFor("Ask anything", 20_000);
    t.send('call mcp__fx__echo {"text":"forbidden"}');
    const s = await t.waitFor("Blocked by extension guard", 20_000);
    expect(s).toContain("[mcp:fx]");
  },
  T,
);

test(
  "an elicitation opens a form panel whose answer goes back to the server",
  async () => {
    const t = await tui.start({ args: ["--mcp", list] });
    await t.waitFor("Ask anything", 20_000);
    t.send("call mcp__nu__ask {}");
    await t.waitFor("What is your name?", 20_000);
    t.send("Ann");
    await t.waitFor("hello Ann", 20_000);
  },
  T,
);

test(
  "an MCP prompt runs as a slash command",
  async () => {
    const t = await tui.start({ args: ["--mcp", list] });
    await t.waitFor("Ask anything", 20_000);
    t.send("/mcp__fx__review src/app.ts");
    await t.waitFor("Please review src/app.ts", 20_000);
  },
  T,
);

test(
  "@server:uri in a typed prompt attaches the resource (the file picker leaves it alone)",
  async () => {
    const t = await tui.start({ args: ["--mcp", list] });
    await t.waitFor("Ask anything", 20_000);
    t.send("read @nu:fixture://readme");
    await t.waitFor(`<resource server="nu" uri="fixture://readme">`, 20_000);
  },
  T,
);

/** An OAuth-protected HTTP server listed as "web", for one test; `run` gets the authorization server and the list. */
async function withProtectedServer(
  file: string,
  run: (as: AuthServer, list: string) => Promise<void>,
  guard: Parameters<typeof protect>[1] = {},
): Promise<void> {
  const as = startAuthServer();
  const mcp = startMcpHttpServer({ era: "modern", reply: "json", guard: protect(() => as, guard) });
  try {
    await run(as, writeList(join(dir, file), { web: { type: "http", url: mcp.url } }));
  } finally {
    await Promise.all([as.stop(), mcp.stop()]);
  }
}

test(
  "an HTTP server that needs an OAuth login is a start-up notice naming zot mcp login; the TUI opens no browser",
  () =>
    withProtectedServer("web.json", async (as, web) => {
      const t = await tui.start({ args: ["--mcp", web], env: { ZOT_BROWSER: "/bin/false" } });
      const screen = await t.waitFor("needs login", 20_000);
      expect(screen.replace(/\s+/g, " ")).toContain("MCP server web did not start: it needs login: run zot mcp login web");
      expect(as.requests.filter((r) => r.path === "/authorize")).toEqual([]);
    }),
  T,
);

/** The TUI on `list`, logged in to "web" with /mcp-login (the browser opener follows the redirects). */
async function loggedInTui(list: string): Promise<Awaited<ReturnType<typeof tui.start>>> {
  const t = await tui.start({ args: ["--mcp", list], env: { ZOT_BROWSER: join(MCP_FIXTURES, "browser.ts") } });
  await t.waitFor("needs login", 20_000);
  t.send("/mcp-login web");
  await t.waitFor("Logged in to MCP server web: oauth: logged in", 30_000);
  return t;
}

test(
  "/mcp-login logs in through the browser opener and restarts the server, whose tools then carry the token (masked on screen and in the transcript)",
  () =>
    withProtectedServer("web-login.json", async (as, web) => {
      const t = await loggedInTui(web);
      t.send("call mcp__web__whoami {}");
      const token = [...as.issued.keys()][0];
      const screen = await t.waitFor("returned: you sent Bearer at-1…[redacted]", 20_000);
      expect(screen).not.toContain(token);
      const transcript = readFileSync(sessionFiles(t.home)[0]!, "utf8");
      expect(transcript).toContain("you sent Bearer at-1…[redacted]");
      expect(transcript).not.toContain(token);
    }),
  T,
);

test(
  "after a 403 insufficient_scope the notice offers /mcp-login, which asks for the granted and the asked scope, and the tool then works",
  () =>
    withProtectedServer(
      "web-step-up.json",
      async (as, web) => {
        const t = await loggedInTui(web);
        t.send("call mcp__web__whoami {}");
        const notice = await t.waitFor("In this session: /mcp-login web.", 20_000);
        expect(notice.replace(/\s+/g, " ")).toContain(
          'MCP server web needs more access: run zot mcp login web (it refused the token for lacking the scope "mcp:admin"',
        );
        t.send("/mcp-login web");
        await t.waitFor('Asking for the scope "mcp:tools mcp:admin"', 30_000);
        await t.waitFor(/Asking for the scope[\s\S]*Logged in to MCP server web: oauth: logged in/, 30_000);
        expect(as.requests.filter((r) => r.path === "/authorize").map((r) => r.query.scope)).toEqual(["mcp:tools", "mcp:tools mcp:admin"]);
        t.send("call mcp__web__whoami {}");
        await t.waitFor("returned: you sent Bearer at-2", 20_000);
      },
      { toolScopes: { whoami: "mcp:admin" } },
    ),
  T,
);

test(
  "a server list added while the TUI runs (zot mcp add in another terminal) loads on /reload-ext",
  async () => {
    const t = await tui.start();
    await t.waitFor("Ask anything", 20_000);
    writeList(join(t.home, "mcp.json"), { late: { command: "python3", args: [LEGACY] } });
    t.send("/reload-ext");
    await t.waitFor(/Reloaded/, 20_000);
    t.send('call mcp__late__echo {"text":"added later"}');
    await t.waitFor("echo: added later", 20_000);
  },
  T,
);
