// The command server started with the command line (src/agent/sandbox/server-process.ts): before
// zot knows the session's policy, it starts the server a sandboxed run with bash will use, told its
// confinement later. The session's server is that very process; one the session does not take ends
// by itself; a run the sandbox has no part in starts none. Each case runs in a fresh process, as zot
// does once per start.
import { beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { landlockAbi } from "../../../src/platform/landlock.ts";
import { tempDir } from "../../helpers/temp.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const canConfine = process.platform === "linux" && landlockAbi() > 0;
/** As `nobody` too (through setpriv from this root process), where util-linux `unshare` starts the launcher. */
const BASE_NOBODY = "/var/cache";
const canSwitch = canConfine && process.getuid?.() === 0 && existsSync("/usr/bin/setpriv") && existsSync(BASE_NOBODY);

let rootDir: string;
let nobodyDir: string;
beforeAll(() => {
  // Not under a temp directory, so only the workspace is writable; one `nobody` can traverse for its cases.
  rootDir = tempDir(".zot-prestart-", homedir());
  nobodyDir = tempDir("zot-prestart-nobody-", canSwitch ? BASE_NOBODY : homedir());
  for (const dir of [rootDir, nobodyDir]) for (const d of ["project", "home", "zot-home"]) mkdirSync(join(dir, d), { recursive: true });
  for (const d of ["", "project", "home", "zot-home"]) chmodSync(join(nobodyDir, d), 0o777);
});

type Seen = { early: number[]; up: number[]; ppid: string; after: number[] };

/** `flags`: the command line's choices; `session`: what the session then does (`warm`: takes a server for its policy; `none`: needs none). */
async function startWith(flags: Record<string, unknown>, session: "warm" | "none", n: number, asNobody = false): Promise<Seen> {
  const dir = asNobody ? nobodyDir : rootDir;
  const src = (m: string) => JSON.stringify(join(ROOT, "src", m));
  const script = join(dir, `prestart-${n}.ts`);
  // It exists, as zot's home does: one made during the session would change the confinement.
  const zotHome = join(dir, "zot-home", String(n));
  mkdirSync(zotHome, { recursive: true });
  chmodSync(zotHome, 0o777);
  writeFileSync(
    script,
    `import { childrenWith } from ${JSON.stringify(join(ROOT, "test", "helpers", "processes.ts"))};
import { prestartServer } from ${src("agent/sandbox/server-process.ts")};
import { prepareSandbox } from ${src("agent/sandbox/probe.ts")};
import { warmCommandServer } from ${src("agent/sandbox/command-server.ts")};
import { sandboxPolicy } from ${src("agent/sandbox/policy.ts")};
import { bashTool } from ${src("agent/tools/bash.ts")};
const servers = () => childrenWith(process.pid, "--serve");
prestartServer(${JSON.stringify({ noTools: false, ...flags })});
// Under unshare the server's own exec comes after the spawn returns, and a process in its exec shows no arguments for a moment.
let early = servers();
for (let i = 0; i < 50 && early.length === 0; i++) { await Bun.sleep(10); early = servers(); }
const cwd = ${JSON.stringify(join(dir, "project"))};
const p = sandboxPolicy({ mode: "workspace-write", network: false, writable: [], hidden: [] }, { cwd, zotHome: ${JSON.stringify(zotHome)}, userHome: ${JSON.stringify(join(dir, "home"))} });
let ppid = "";
if (${JSON.stringify(session)} === "warm") {
  await prepareSandbox(p, ${JSON.stringify(zotHome)});
  warmCommandServer(p);
} else warmCommandServer(null);
const up = servers();
if (${JSON.stringify(session)} === "warm") {
  const r = await bashTool.execute({ command: "echo $PPID" }, { cwd, home: ${JSON.stringify(zotHome)}, signal: new AbortController().signal, progress: () => {}, sandbox: p });
  ppid = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}
for (let i = 0; i < 100 && ${JSON.stringify(session)} === "none" && servers().length > 0; i++) await Bun.sleep(20);
console.log(JSON.stringify({ early, up, ppid, after: servers() }));
process.exit(0);
`,
  );
  chmodSync(script, 0o644);
  const as = asNobody ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
  const proc = Bun.spawn([...as, process.execPath, script], { cwd: dir, env: { ...process.env, HOME: join(dir, "home") }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect({ code, err: err.trim() }).toEqual({ code: 0, err: "" });
  return JSON.parse(out.trim().split("\n").at(-1)!) as Seen;
}

test.skipIf(!canConfine)("the server started with the command line is the session's: it is confined later and runs the first command", async () => {
  const seen = await startWith({}, "warm", 1);
  expect(seen.early.length).toBe(1);
  // No second server: the session took the one started early.
  expect(seen.up).toEqual(seen.early);
  expect(Number(seen.ppid)).toBe(seen.early[0]!);
  expect(seen.after).toEqual(seen.early);
});

test.skipIf(!canConfine)("a server started with the command line that the session does not take ends by itself", async () => {
  const seen = await startWith({}, "none", 2);
  expect(seen.early.length).toBe(1);
  expect(seen.after).toEqual([]);
});

test.skipIf(!canConfine)("a run the sandbox has no part in starts no server: --sandbox off, --no-tools, tools without bash", async () => {
  let n = 3;
  for (const flags of [{ sandbox: "off" }, { noTools: true }, { tools: ["read", "edit"] }]) expect((await startWith(flags, "none", n++)).early).toEqual([]);
  // bash among the chosen tools, the network allowed on the command line: started.
  expect((await startWith({ tools: ["read", " bash"], sandboxNetwork: true }, "none", n++)).early.length).toBe(1);
});

test.skipIf(!canSwitch)(
  "as a user who is not root, the server started under unshare is the session's; one the session does not take ends",
  async () => {
    const seen = await startWith({}, "warm", 10, true);
    expect(seen.early.length).toBe(1);
    expect(seen.up).toEqual(seen.early);
    expect(Number(seen.ppid)).toBe(seen.early[0]!);
    const left = await startWith({}, "none", 11, true);
    expect(left.early.length).toBe(1);
    expect(left.after).toEqual([]);
  },
  60_000,
);
