// `zot mcp …`: the MCP server CLI, with the conventions of `zot ext` (the same argument parser,
// context, `zot: <sentence>` errors on stderr and exit codes).
import { type CliIo, fail } from "./kit/context.ts";
import { prepareSub, requiredPositional, type Sub } from "./kit/subcommand.ts";
import { add, remove } from "./mcp/edit.ts";
import { doctor } from "./mcp/doctor.ts";
import { list } from "./mcp/list.ts";
import { loginCommand, logoutCommand } from "./mcp/login.ts";

const SUBS: Record<string, Sub> = {
  list: {
    usage: "list [--json]",
    about: "list configured MCP servers and where they come from (starts nothing)",
    spec: { flags: ["--json"] },
    positionals: [0, 0],
  },
  add: {
    usage:
      "add <name> [--project] [--force] [--env K=V]... -- <command> [args...] | add <name> --url URL [--header K:V]... [--client-id ID] [--client-secret S] [--callback-port N]",
    about: "add a stdio server (after --) or a Streamable HTTP server (--url) to $ZOT_HOME/mcp.json (--project: ./.mcp.json)",
    spec: {
      flags: ["--project", "--force"],
      values: ["--url", "--transport", "--client-id", "--client-secret", "--callback-port"],
      multi: ["--header", "--env"],
      aliases: { "-H": "--header", "-e": "--env", "-t": "--transport" },
    },
    positionals: [1, Number.MAX_SAFE_INTEGER],
  },
  remove: {
    usage: "remove <name> [--project]",
    about: "remove a server from $ZOT_HOME/mcp.json (--project: ./.mcp.json)",
    spec: { flags: ["--project"] },
    positionals: [1, 1],
  },
  login: { usage: "login <name>", about: "log in to an HTTP server with OAuth (opens a browser; the URL is printed too)", spec: {}, positionals: [1, 1] },
  logout: { usage: "logout <name>", about: "forget the OAuth tokens of a server ($ZOT_HOME/mcp-auth.json)", spec: {}, positionals: [1, 1] },
  doctor: {
    usage: "doctor [--json] [--mcp FILE]... [--no-mcp]",
    about: "start every server like zot does, handshake, list tools/prompts/resources, report, shut down",
    spec: { flags: ["--json", "--no-mcp"], multi: ["--mcp"] },
    positionals: [0, 0],
  },
};

function mcpHelp(): string {
  const width = Math.max(...Object.values(SUBS).map((s) => (s.usage.split(" | ")[0] ?? "").length)) + 2;
  const lines = Object.values(SUBS).flatMap((s) => {
    const [first = "", ...more] = s.usage.split(" | ");
    return [`  ${first.padEnd(width)}${s.about}`, ...more.map((m) => `  ${m}`)];
  });
  return [
    "usage: zot mcp <command> [options]",
    "",
    "commands:",
    ...lines,
    `  ${"serve [--http [HOST:]PORT --token-env VAR] [zot options]".padEnd(width)}run zot as an MCP server: its tools and its extensions' (zot mcp serve --help)`,
    "",
    "every command takes --cwd DIR (the project whose .mcp.json and .zot/mcp.json are read)",
    "server lists, first name wins: --mcp files, <cwd>/.zot/mcp.json, <cwd>/.mcp.json (trusted folders",
    'only; zot ext trust), $ZOT_HOME/mcp.json. Format: {"mcpServers": {name: {command, args, env, cwd} |',
    '{type: "http", url, headers, oauth}}}; ${VAR} and ${VAR:-default} expand. Tools are named mcp__<server>__<tool>.',
    "HTTP servers that ask for OAuth need zot mcp login NAME once; tokens refresh by themselves.",
    "",
  ].join("\n");
}

/** Runs `zot mcp <argv…>`; returns the exit code. */
export async function runMcpCli(argv: string[], io: CliIo = {}): Promise<number> {
  // How to write `add` when its arguments did not parse: the server's command goes after --.
  const hint = (name: string, rest: string[]) =>
    name === "add" ? ` (put the server's command after --, e.g. zot mcp add ${rest[0] ?? "NAME"} -- npx -y PACKAGE)` : "";
  const prepared = prepareSub("zot mcp", SUBS, mcpHelp, argv, io, hint);
  if (!prepared.ok) return prepared.code;
  const { name, args, ctx } = prepared;
  const flag = (f: string) => args.flags.has(f);
  switch (name) {
    case "list":
      return list(ctx, flag("--json"));
    case "add": {
      const server = requiredPositional(args, 0);
      const command = args.positionals.slice(1);
      // Claude Code's spelling, so commands copied from a server's README work: --transport http NAME URL.
      const transport = args.values.get("--transport");
      if (transport !== undefined && transport !== "http" && transport !== "stdio")
        return fail(ctx, `--transport must be http or stdio (got "${transport}"); zot does not speak the deprecated sse transport.`);
      const byTransport = transport === "http" && args.values.get("--url") === undefined && command.length === 1;
      const url = byTransport ? command[0] : args.values.get("--url");
      const oauth = {
        clientId: args.values.get("--client-id"),
        clientSecret: args.values.get("--client-secret"),
        callbackPort: args.values.get("--callback-port"),
      };
      return add(ctx, server, {
        command: byTransport ? [] : command,
        url,
        headers: args.multi.get("--header") ?? [],
        env: args.multi.get("--env") ?? [],
        project: flag("--project"),
        force: flag("--force"),
        oauth,
      });
    }
    case "login":
      return loginCommand(ctx, requiredPositional(args, 0));
    case "logout":
      return logoutCommand(ctx, requiredPositional(args, 0));
    case "remove":
      return remove(ctx, requiredPositional(args, 0), flag("--project"));
    default:
      return doctor(ctx, { json: flag("--json"), files: args.multi.get("--mcp") ?? [], none: flag("--no-mcp") });
  }
}
