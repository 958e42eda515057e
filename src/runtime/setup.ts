// Builds a Runtime from the command line: config and credentials, the model catalog, the provider
// client, the tools, the session transcript and the extension host (loaded with the real
// provider/model/cwd so hello_ack carries them).
import { authPath } from "../platform/home.ts";
import { isDumbTerminal } from "../platform/terminal.ts";
import { dirname, resolve } from "node:path";
import { Host } from "../ext/host.ts";
import { parseExtensionPolicy } from "../ext/sandbox/scope-policy.ts";
import { storedSecretValues } from "../ext/install/settings.ts";
import type { ExtensionHost } from "../ext/types.ts";
import { skippedExtensions, skippedNotice } from "../ext/install/trust.ts";
import { ZOT_VERSION } from "../version.ts";
import { offersShell } from "../names.ts";
import { defaultModel, findModel, isProviderName, loadModels, reasoningProblem, unknownModelNotice, type ProviderName } from "../agent/catalog.ts";
import {
  addKeyAdvice,
  defaultProvider,
  knownSecrets,
  PROVIDER_ENV_KEYS,
  readAuth,
  SUBSCRIPTION_NOTE,
  readConfig,
  rememberModel,
  resolveCredentials,
  configPath,
} from "../agent/config.ts";
import type { Runtime, RuntimeConfig } from "./runtime.ts";
import type { RunFlags } from "./run-flags.ts";
import { redactSecrets } from "../redact.ts";
import { appendSession, createSession, noSession, openSession, type LoadedSession, type SessionWriter } from "../agent/session.ts";
import { latestSession } from "../agent/session-list.ts";
import { emptyUsage } from "../agent/messages.ts";
import { startingPermissionMode } from "../agent/permission-modes.ts";
import { DEFAULT_AUTO_COMPACT_PERCENT } from "../agent/compaction.ts";
import { discoveryBase, mergeCached, type Discovery } from "../agent/model-discovery.ts";
import { IN_USE, lockedWriter, lockSession, type SessionLock } from "../agent/session-lock.ts";
import { planSandbox, unenforcedNotice } from "../agent/sandbox/setup.ts";
import { prepareSandbox } from "../agent/sandbox/probe.ts";
import { sandboxStatus } from "../agent/sandbox/status.ts";
import { warmCommandServer } from "../agent/sandbox/command-server.ts";
import { prepareReaperSoon } from "../platform/reaper.ts";
import { Checkpoints } from "../agent/checkpoints.ts";
import { DEFAULT_PRUNE, type PruneLimits } from "../agent/checkpoint-store.ts";
import { checkpointsDir } from "../platform/home.ts";
import { projectRoot } from "../platform/project-root.ts";
import { preconnect } from "../platform/http.ts";

/** What createRuntime is given: the user's choices, where the run happens, and who is there to confirm. */
export type RuntimeOptions = RunFlags &
  Pick<RuntimeConfig, "home" | "cwd" | "env"> & {
    /** False in print, JSON and RPC modes: nobody can confirm tool calls there. */
    interactive: boolean;
    /** Tests and benchmarks inject a host with short timings; zot uses a default Host. */
    host?: ExtensionHost;
  };

/** `notices` on a failure: what was found wrong before it (a config.json value ignored, an auth.json refused), said too. */
export type Created = { ok: true; runtime: Runtime; notices: string[] } | { ok: false; error: string; usage?: true; notices?: string[] };

export async function createRuntime(o: RuntimeOptions): Promise<Created> {
  const notices: string[] = [];
  const r = await build(o, notices);
  return r.ok || notices.length === 0 ? r : { ...r, notices };
}

async function build(o: RuntimeOptions, notices: string[]): Promise<Created> {
  const config = readConfig(o.home);
  // Read once: the provider choice, the credentials and the secrets to mask all come from it.
  const auth = readAuth(o.home);
  notices.push(...config.warnings);

  let loaded: LoadedSession | null = null;
  // The transcript's writer lock, taken before anything is appended; `fork` when another process holds it.
  let lock: SessionLock | undefined;
  let fork = false;
  const lockLoaded = (path: string): { error: string } | null => {
    if (o.noSession) return null;
    const r = lockSession(path);
    if (r.ok) lock = r.lock;
    else if (r.held) fork = true;
    else return { error: r.error };
    return null;
  };
  if (o.session !== undefined) {
    const r = openSession(resolve(o.session));
    if (!r.ok) return { ok: false, error: r.error };
    loaded = r.session;
    const failed = lockLoaded(loaded.path);
    if (failed) return { ok: false, error: failed.error };
    // Asked for by name: writing it from a second process is what the lock prevents, so say so instead.
    if (fork)
      return {
        ok: false,
        error: `Cannot continue ${loaded.path}: it ${IN_USE}; wait for that zot to exit, or run zot -c to continue in a new session forked from it.`,
      };
  } else if (o.continue) {
    const latest = latestSession(o.home, o.cwd);
    if (latest === null) notices.push(`No earlier session for ${o.cwd}; starting a new one.`);
    else {
      const r = openSession(latest);
      if (!r.ok) return { ok: false, error: r.error };
      loaded = r.session;
      const failed = lockLoaded(loaded.path);
      if (failed) return { ok: false, error: failed.error };
    }
  }
  if (loaded) notices.push(...loaded.warnings);

  let provider: ProviderName;
  if (o.provider) provider = o.provider;
  else if (o.mockScript !== undefined) provider = "mock";
  else if (loaded?.provider && isProviderName(loaded.provider)) provider = loaded.provider;
  else {
    const choice = defaultProvider({ home: o.home, env: o.env, apiKey: o.apiKey, last: config.values.provider, auth });
    // Only the TUI falls back to the offline mock unasked (it says so, and /login fixes it); a
    // script must not pass on a mock's answers.
    if (choice.notice && !o.interactive)
      return {
        ok: false,
        error: `No API key found for any provider: ${addKeyAdvice(o.home)}; or pass --provider mock to run on the offline mock provider.${auth.warning ? ` ${auth.warning}` : ""}`,
        usage: true,
      };
    if (choice.notice) notices.push(choice.notice);
    provider = isProviderName(choice.provider) ? choice.provider : "mock";
  }

  let creds = resolveCredentials({ provider, home: o.home, env: o.env, apiKey: o.apiKey, auth });
  notices.push(...creds.warnings);
  const keyVars = PROVIDER_ENV_KEYS[provider];
  if (keyVars && !creds.credential) {
    const vars = keyVars.join(" or ");
    // A refused auth.json (group/world-readable) is the likely cause; say so in the same breath.
    const why = creds.warnings.length
      ? ` ${creds.warnings.join(" ")}`
      : auth.subscriptions.includes(provider)
        ? ` (${authPath(o.home)}: ${provider} is ${SUBSCRIPTION_NOTE}.)`
        : "";
    if (!(o.interactive && loaded && o.provider === undefined))
      return { ok: false, error: `No API key for ${provider}: set ${vars}, pass --api-key, or add the key to ${authPath(o.home)}.${why}`, usage: true };
    // A resumed session opens anyway: in the TUI, /login or /model can fix what is missing.
    notices.push(
      `No API key for ${provider}, the provider of this session, so it continues on the offline mock provider. /login ${provider} stores a key and switches to it; /model picks another model.${why}`,
    );
    provider = "mock";
    creds = { credential: null, warnings: [] };
  }

  const catalog = loadModels(o.home);
  notices.push(...catalog.warnings);
  // Live ids from the cache join the catalog now; a stale or missing cache is refreshed in the
  // background once the runtime runs (never for the mock provider, never without a key).
  let discovery: Discovery | undefined;
  if (provider !== "mock" && creds.credential) {
    const d: Discovery = { home: o.home, provider, key: creds.credential.key, base: discoveryBase(provider, o.baseUrl) };
    if (!mergeCached(catalog.models, d)) discovery = d;
  }
  const model =
    o.model ??
    (loaded && loaded.provider === provider && loaded.model ? loaded.model : undefined) ??
    (config.values.provider === provider && config.values.model ? config.values.model : undefined) ??
    defaultModel(provider);
  const info = findModel(catalog.models, provider, model);
  // The provider's connection opens while the extensions start and the client modules load.
  if (provider !== "mock" && creds.credential) preconnect(discoveryBase(provider, o.baseUrl ?? info?.baseUrl), o.env);
  if (provider !== "mock" && !info) notices.push(unknownModelNotice(provider, model));
  const badReasoning = o.reasoning && provider !== "mock" ? reasoningProblem(info, o.reasoning, provider, model) : undefined;
  if (badReasoning) return { ok: false, error: `${badReasoning}.`, usage: true };
  // Else the level saved in config.json (the Go zot keeps it there), where this model takes it.
  const saved = config.values.reasoning;
  const reasoning = o.reasoning ?? (saved && (provider === "mock" || !reasoningProblem(info, saved, provider, model)) ? saved : undefined);
  if (o.wire) {
    const { wireProblem } = await import("../agent/providers/endpoints.ts");
    const badWire = wireProblem(provider, o.wire);
    if (badWire) return { ok: false, error: `${badWire}.`, usage: true };
  }
  // What the command line chose is for this run; config.json keeps what /model and /login chose.
  if (provider !== "mock" && o.model === undefined && o.provider === undefined && (config.values.provider !== provider || config.values.model !== model)) {
    const r = rememberModel(o.home, provider, model);
    if (!r.ok) notices.push(r.error);
  }

  // Extensions start as soon as hello_ack's facts are known; the provider client, the tools and the
  // loop are loaded while they boot (on another core), instead of before.
  // Extension secrets (zot ext config) are masked like provider keys, everywhere zot writes text.
  const secrets = [...knownSecrets(o.home, o.env, o.apiKey, auth), ...storedSecretValues(o.home)];
  // The sandbox probe runs beside the extensions' start, not before it; where bash will run
  // commands, the session's command server is the probe (probe.ts), and where this boot's earlier
  // start found the sandbox enforced, nothing waits for it.
  const planned = planSandbox(config.raw.sandbox, configPath(o.home), o);
  const shell = offersShell(o);
  const probing = o.sandbox === "off" ? Promise.resolve() : prepareSandbox(shell ? planned.policy : null, o.home);
  const host = o.host ?? new Host();
  const policy = parseExtensionPolicy(config.raw.extensions, configPath(o.home));
  notices.push(...policy.warnings);
  const loading = host.load({
    extPaths: o.ext,
    noExt: o.noExt,
    cwd: o.cwd,
    home: o.home,
    policy: policy.policy,
    trust: o.trust,
    info: { zotVersion: ZOT_VERSION, provider, model, cwd: o.cwd },
    traceFile: o.extTrace === undefined ? undefined : resolve(o.extTrace),
    mask: (text) => redactSecrets(text, secrets),
    // The same array the session writer, the modes and the mask read: a token joins all of them.
    onSecret: (value) => {
      if (!secrets.includes(value)) secrets.push(value);
    },
  });
  const { createProvider, selectTools, Runtime } = await import("./agent-parts.ts");
  const client = createProvider({
    provider,
    apiKey: creds.credential?.key,
    ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
    wire: o.wire,
    mockScript: o.mockScript,
    catalog: catalog.models,
    limits: config.values.limits,
    home: o.home,
  });
  const picked = o.noTools ? { tools: [] } : selectTools(o.tools ?? null);
  const selected = o.noSkill ? { ...picked, tools: picked.tools.filter((t) => t.name !== "skill") } : picked;
  const [report] = await Promise.all([loading, probing]);
  if (report.traceError) {
    await host.shutdown();
    return { ok: false, error: report.traceError, usage: true };
  }
  if (selected.error) {
    await host.shutdown();
    return { ok: false, error: selected.error };
  }
  for (const e of report.errors) {
    const log = e.log && !e.message.includes(e.log) ? ` (log: ${e.log})` : "";
    if (e.source !== "mcp") notices.push(`Extension ${e.extension} did not load: ${e.message}${log}`);
    else notices.push(e.extension === "mcp" ? e.message : `MCP server ${e.extension} did not start: ${e.message}${log}`);
  }
  // A declared scope this machine cannot fully enforce is said at start, not pretended.
  for (const s of report.extensions) {
    if (s.enforcement === "advisory")
      notices.push(
        `Extension ${s.name} declares permissions, but this system cannot enforce them (no Landlock or sandbox-exec): only its environment is narrowed.`,
      );
    else if (s.enforcement.startsWith("partial"))
      notices.push(`Extension ${s.name}'s permissions are enforced only in part (${s.enforcement.slice("partial: ".length)}).`);
    else if (policy.policy.unrestricted === "warn" && s.enforcement === "unrestricted" && (s.status === "ready" || s.status === "auto_ready"))
      notices.push(`Extension ${s.name} declares no permissions, so it runs with your full privileges (config.json "extensions": {"unrestricted": "warn"}).`);
  }

  const skippedLine = skippedNotice(o.home, o.cwd, "extensions", skippedExtensions(report.extensions), o.interactive && !isDumbTerminal(o.env) ? "tui" : "cli");
  if (skippedLine) notices.push(skippedLine);

  const sandbox = { ...planned, status: sandboxStatus(planned.policy) };
  notices.push(...sandbox.notices);
  // The confined command server, if the probe did not start it, starts now, beside the first model
  // request, not at the first command; one the command line started and nothing took ends.
  warmCommandServer(sandbox.status.enforced && shell ? sandbox.policy : null);
  // Every command's group is listed with the reaper (from its go on, or once the server reports its
  // start), so the reaper starts beside the first model request too, not on the first command's way.
  if (shell) prepareReaperSoon();

  // Commands run unasked by default only where the kernel confines them, or where the user turned the sandbox off.
  const permissionMode = startingPermissionMode({
    flag: o.permissionMode,
    session: loaded?.meta?.permission_mode,
    config: config.values.permissionMode,
    sandboxEnforced: sandbox.status.enforced || sandbox.status.mode === "off",
  });
  const unenforced = unenforcedNotice(sandbox.status, permissionMode, o.interactive);
  if (unenforced) notices.push(unenforced);

  let session: SessionWriter;
  if (o.noSession) session = noSession;
  else if (loaded && !fork) {
    session = lockedWriter(appendSession(loaded, secrets), lock);
    if (loaded.provider !== provider || loaded.model !== model) session.model(provider, model);
    session.permissionMode(permissionMode);
  } else {
    // A fork names the session it copies as its parent, so /session tree shows the two together.
    const parent = loaded?.meta?.id ? { parent: loaded.meta.id } : {};
    session = lockedWriter(createSession({ home: o.home, cwd: o.cwd, provider, model, secrets, permissionMode, ...parent }));
    if (loaded) {
      // The fork starts as a copy of the conversation so far; the original stays its writer's.
      for (const m of loaded.messages) session.message(m);
      notices.push(`${loaded.path} ${IN_USE}; continuing in a new session forked from it: ${session.path}`);
    }
  }

  const runtime = new Runtime({
    home: o.home,
    cwd: o.cwd,
    env: o.env,
    host,
    provider: client,
    providerName: provider,
    model,
    mockScript: o.mockScript,
    catalog: catalog.models,
    builtins: selected.tools,
    extensionTools: !o.noTools,
    systemPrompt: o.systemPrompt,
    appendSystemPrompt: o.appendSystemPrompt,
    reasoning,
    wire: o.wire,
    maxSteps: o.maxSteps,
    permissionMode,
    sandbox: { policy: sandbox.policy, status: sandbox.status },
    trust: o.trust,
    // One-shot and RPC runs condense only when the provider says the context is too long: after
    // a `zot -p` there is no next prompt to make room for.
    autoCompactPercent: !o.interactive || config.values.autoCompact === false ? null : (config.values.autoCompact ?? DEFAULT_AUTO_COMPACT_PERCENT),
    session,
    history: loaded ? loaded.messages : [],
    usage: loaded ? loaded.usage : emptyUsage(),
    // A fork's transcript has no usage rows yet.
    byModel: loaded && !fork ? loaded.byModel : [],
    title: loaded && !fork ? loaded.title : null,
    ...(creds.credential ? { credential: { provider, key: creds.credential.key } } : {}),
    ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
    noSession: o.noSession,
    secrets,
    discovery,
    limits: config.values.limits,
    checkpoints: o.noSession || config.values.checkpoints === false ? null : checkpointsFor(o.home, o.cwd, config.values.checkpoints ?? DEFAULT_PRUNE),
  });
  host.emit({ event: "session_start" });
  return { ok: true, runtime, notices };
}

/** The checkpoints of the workspace `cwd` belongs to; the home directory and `/` are too broad to walk. */
function checkpointsFor(home: string, cwd: string, prune: PruneLimits): Checkpoints {
  const workspace = projectRoot(cwd);
  // zot's own state (keys, sessions) is never copied into a checkpoint, even when zot works in it.
  const inHome = resolve(workspace) === resolve(home) || resolve(workspace).startsWith(`${resolve(home)}/`);
  const broad = inHome || workspace === process.getBuiltinModule("node:os").homedir() || dirname(workspace) === workspace;
  return new Checkpoints(checkpointsDir(home), workspace, { exclude: [resolve(home)], scan: !broad, prune });
}
