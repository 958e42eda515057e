// Whether this run has MCP servers at all, decided by a few stat calls, so a headless run without
// any never loads the MCP modules; when it has (and always in the TUI), the extension host is
// wrapped in an McpHost.
import { userConfigPath } from "../platform/home.ts";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { TrustMode } from "../ext/install/trust.ts";
import type { ExtensionHost, HostInfo } from "../ext/types.ts";
import { hasProjectLists } from "../mcp/config.ts";

export type McpRun = {
  home: string;
  cwd: string;
  /** `--mcp` paths as given (relative to the process cwd). */
  files: string[];
  none: boolean;
  trust: TrustMode;
  interactive: boolean;
};

/** A run goes on after this long without the servers still starting (npx may be downloading). */
const RUN_WAIT_MS = 15_000;

export function hasMcpConfig(r: Pick<McpRun, "home" | "cwd" | "files" | "none">): boolean {
  if (r.files.length > 0) return true;
  if (r.none) return false;
  return existsSync(userConfigPath(r.home)) || hasProjectLists(r.cwd);
}

export async function withMcp(inner: ExtensionHost, r: McpRun): Promise<ExtensionHost> {
  // The TUI gets the MCP client even without a list: one added while it runs (`zot mcp add` in
  // another terminal, a pull that brings a .mcp.json) then loads on /reload-ext or /trust.
  if (!hasMcpConfig(r) && (!r.interactive || r.none)) return inner;
  const { McpHost } = await import("../mcp/host.ts");
  return new McpHost(inner, {
    files: r.files.map((f) => resolve(f)),
    none: r.none,
    interactive: r.interactive,
    waitMs: RUN_WAIT_MS,
    trust: r.trust,
    contextWindow: async (info: HostInfo) => {
      const { findModel, loadModels } = await import("../agent/catalog.ts");
      return findModel(loadModels(r.home).models, info.provider, info.model)?.contextWindow ?? 0;
    },
  });
}
