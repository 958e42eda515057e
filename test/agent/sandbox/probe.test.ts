// The sandbox probe at start-up (src/agent/sandbox/probe.ts): where bash will run commands under a
// policy without network, the session's command server is the trial — it is up once the verdict
// is in, and the first command runs in it; a policy with network keeps the confined `exit 0`. A
// verdict of "enforced" is remembered for the boot, and the next start takes it without waiting.
// Each case runs in a fresh process, since the verdict is found out once per process.
import { beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { landlockAbi } from "../../../src/platform/landlock.ts";
import { tempDir } from "../../helpers/temp.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const canConfine = process.platform === "linux" && landlockAbi() > 0;

let dir: string;
beforeAll(() => {
  // Not under a temp directory, so only the workspace is writable.
  dir = tempDir(".zot-probe-", homedir());
  for (const d of ["project", "home", "zot-home"]) mkdirSync(join(dir, d), { recursive: true });
});

type Seen = { enforced: boolean; servers: number[]; ppid: string; after: number[] };

/** A zot home of its own for each case: a remembered verdict is kept there. */
function home(name: string): string {
  const h = join(dir, name);
  mkdirSync(h, { recursive: true });
  return h;
}

const verdictFile = (zotHome: string) => join(zotHome, "sandbox-verdict.json");

/** A home of its own whose verdict a first start has remembered, and that verdict. */
async function rememberedHome(name: string): Promise<{ h: string; kept: Record<string, unknown> & { abi: number } }> {
  const h = home(name);
  await probeWith(false, h);
  return { h, kept: JSON.parse(readFileSync(verdictFile(h), "utf8")) };
}

async function probeWith(network: boolean, zotHome: string): Promise<Seen> {
  const src = (m: string) => JSON.stringify(join(ROOT, "src", m));
  const script = join(dir, `probe-${network}.ts`);
  writeFileSync(
    script,
    `import { childrenWith } from ${JSON.stringify(join(ROOT, "test", "helpers", "processes.ts"))};
import { prepareSandbox } from ${src("agent/sandbox/probe.ts")};
import { sandboxStatus } from ${src("agent/sandbox/status.ts")};
import { sandboxPolicy } from ${src("agent/sandbox/policy.ts")};
import { bashTool } from ${src("agent/tools/bash.ts")};
const servers = () => childrenWith(process.pid, "--serve");
const cwd = ${JSON.stringify(join(dir, "project"))};
const p = sandboxPolicy({ mode: "workspace-write", network: ${network}, writable: [], hidden: [] }, { cwd, zotHome: ${JSON.stringify(join(dir, "zot-home"))}, userHome: ${JSON.stringify(join(dir, "home"))} });
await prepareSandbox(p, ${JSON.stringify(zotHome)});
const up = servers();
const enforced = sandboxStatus(p).enforced;
const r = await bashTool.execute({ command: "echo $PPID" }, { cwd, home: ${JSON.stringify(join(dir, "zot-home"))}, signal: new AbortController().signal, progress: () => {}, sandbox: p });
console.log(JSON.stringify({ enforced, servers: up, ppid: r.content.map((c) => (c.type === "text" ? c.text : "")).join(""), after: servers() }));
process.exit(0);
`,
  );
  const proc = Bun.spawn([process.execPath, script], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect({ code, err: err.trim() }).toEqual({ code: 0, err: "" });
  return JSON.parse(out.trim().split("\n").at(-1)!) as Seen;
}

test.skipIf(!canConfine)("without network, the session's command server is the probe: it is up with the verdict and runs the first command", async () => {
  const seen = await probeWith(false, home("fresh-without"));
  expect(seen.enforced).toBe(true);
  expect(seen.servers.length).toBe(1);
  expect(Number(seen.ppid)).toBe(seen.servers[0]!);
  expect(seen.after).toEqual(seen.servers);
});

test.skipIf(!canConfine)("with network, a confined `exit 0` is the probe and the server starts with the first command", async () => {
  const seen = await probeWith(true, home("fresh-with"));
  expect(seen.enforced).toBe(true);
  expect(seen.servers).toEqual([]);
  expect(seen.after.length).toBe(1);
  expect(Number(seen.ppid)).toBe(seen.after[0]!);
});

test.skipIf(!canConfine)("an enforced verdict is remembered for this boot, user and build of zot", async () => {
  const h = home("remembers");
  expect(existsSync(verdictFile(h))).toBe(false);
  await probeWith(false, h);
  const kept = JSON.parse(readFileSync(verdictFile(h), "utf8"));
  expect(kept).toMatchObject({
    boot: readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim(),
    uid: process.getuid?.(),
    abi: landlockAbi(),
  });
  expect(typeof kept.zot).toBe("string");
});

test.skipIf(!canConfine)("with the verdict remembered, the server starts at once (even with network) and runs the first command", async () => {
  const h = home("remembered");
  await probeWith(false, h);
  // With network the trial would be a confined `exit 0` and no server would be up yet; the remembered verdict starts the server that confirms it.
  const seen = await probeWith(true, h);
  expect(seen.enforced).toBe(true);
  expect(seen.servers.length).toBe(1);
  expect(Number(seen.ppid)).toBe(seen.servers[0]!);
  expect(existsSync(verdictFile(h))).toBe(true);
});

test.skipIf(!canConfine)(
  "a verdict remembered from another boot, user or build of zot, or without an ABI, is not taken: the probe runs and remembers afresh",
  async () => {
    const { h, kept } = await rememberedHome("stale");
    for (const changed of [
      { boot: "00000000-0000-0000-0000-000000000000" },
      { uid: 4242 },
      { zot: "0.0.1 0000000" },
      { abi: 0 },
      { abi: "7" },
      { abi: undefined },
    ]) {
      writeFileSync(verdictFile(h), JSON.stringify({ ...kept, ...changed }));
      const seen = await probeWith(true, h);
      expect(seen.enforced).toBe(true);
      expect(seen.servers).toEqual([]);
      expect(JSON.parse(readFileSync(verdictFile(h), "utf8"))).toEqual(kept);
    }
    writeFileSync(verdictFile(h), "{not json");
    expect((await probeWith(true, h)).servers).toEqual([]);
    expect(JSON.parse(readFileSync(verdictFile(h), "utf8"))).toEqual(kept);
  },
);

test.skipIf(!canConfine)(
  "a verdict remembered with another Landlock ABI is taken, and its server contradicts it: the command is refused and the verdict forgotten",
  async () => {
    const { h, kept } = await rememberedHome("other-abi");
    writeFileSync(verdictFile(h), JSON.stringify({ ...kept, abi: kept.abi + 1 }));
    const seen = await probeWith(true, h);
    // The session was told the sandbox holds (as remembered), and its server started at once to confirm it.
    expect(seen.enforced).toBe(true);
    expect(seen.servers.length).toBe(1);
    expect(seen.ppid).toContain(
      `[zot] sandbox: the sandbox's command server is confined by Landlock ABI ${kept.abi}, not the ABI ${kept.abi + 1} this session was told at its start (from a verdict remembered earlier in this boot); the command was not run. Restart zot: it checks the sandbox again and says what it can enforce.`,
    );
    expect(existsSync(verdictFile(h))).toBe(false);
  },
);
