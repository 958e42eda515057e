// A folder's project code (extensions, MCP servers of its project lists) as workspace trust sees it:
// what of it is pending approval, read by the start-up question and /trust alike, and trusting the
// folder with all of it, as `zot ext trust` and /trust do.
import { discover, projectPrints } from "../ext/discovery.ts";
import { reviewServers, trustDir, trustedBy, type Unapproved } from "../ext/install/trust.ts";
import type { Result } from "../result.ts";
import type { DiscoveredExtension } from "../ext/types.ts";
import { projectServers, type ProjectServer } from "../mcp/config.ts";

/** A project MCP server workspace trust does not approve, and why. */
export type PendingServer = ProjectServer & { why: Unapproved["why"] };

/** Which kinds of project code a run would load (`--no-ext`, `--no-mcp` leave one out). */
export type TrustScope = { extensions: boolean; servers: boolean };

export type ProjectCode = {
  /** Every extension discovery found (global ones too); the project's are the ones `projectPrints` keeps. */
  found: DiscoveredExtension[];
  /** The project extensions workspace trust does not approve (untrusted, new or changed), manifests readable. */
  pending: DiscoveredExtension[];
  /** Every server of the project lists. */
  servers: ProjectServer[];
  pendingServers: PendingServer[];
};

/** Reviews the project code of `cwd` in `scope` against trust.json (recording a trusted subfolder's first set, as every review does). */
export async function projectCode(home: string, cwd: string, scope: TrustScope): Promise<ProjectCode> {
  const found = scope.extensions ? await discover({ extPaths: [], noExt: false, cwd, home, trust: "store" }) : [];
  const pending = found.filter((e) => e.status === "untrusted" && e.manifest !== null);
  const servers = scope.servers ? projectServers(cwd) : [];
  const why = new Map(
    reviewServers(
      home,
      cwd,
      servers.map((s) => s.print),
      "store",
    ).unapproved.map((u) => [u.name.toLowerCase(), u.why]),
  );
  const pendingServers = servers.flatMap((s) => {
    const w = why.get(s.name.toLowerCase());
    return w === undefined ? [] : [{ ...s, why: w }];
  });
  return { found, pending, servers, pendingServers };
}

/** What /trust shows: the pending code, whether the folder is trusted, and whether it has project code at all. */
export type TrustReview = {
  pending: DiscoveredExtension[];
  pendingServers: PendingServer[];
  /** The trusted folder covering this one, or null. */
  trustedBy: string | null;
  hasCode: boolean;
};

export async function trustReview(home: string, cwd: string): Promise<TrustReview> {
  const code = await projectCode(home, cwd, { extensions: true, servers: true });
  const hasCode = projectPrints(code.found).length > 0 || code.servers.length > 0;
  return { pending: code.pending, pendingServers: code.pendingServers, trustedBy: trustedBy(home, cwd), hasCode };
}

export type TrustedProject = {
  path: string;
  /** The folder was already trusted (itself or through a parent). */
  already: boolean;
  extensions: DiscoveredExtension[];
  servers: ProjectServer[];
};

/** Trusts `dir` and its subfolders, approving the project extensions and MCP servers it has now. */
export async function trustProject(home: string, dir: string): Promise<Result<TrustedProject>> {
  // Read only: discovery with the run override reviews nothing and writes nothing.
  const found = projectPrints(await discover({ extPaths: [], noExt: false, cwd: dir, home, trust: "all" }));
  const servers = projectServers(dir);
  const r = trustDir(
    home,
    dir,
    found.map((f) => f.print),
    servers.map((s) => s.print),
  );
  if (!r.ok) return r;
  return { ok: true, path: r.path, already: r.already, extensions: found.map((f) => f.entry), servers };
}
