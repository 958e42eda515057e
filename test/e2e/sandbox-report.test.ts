// What zot says about the agent's sandbox: the `start` event of --json, RPC's hello and get_state,
// `zot ext doctor`'s agent sandbox line; and, where the kernel cannot enforce it, the notice at
// start and the default permission mode `ask`. "Cannot enforce" is real: zot runs as nobody inside
// a user namespace whose owner set user.max_user_namespaces to 0, as a container that forbids
// nested namespaces does, so zot's own probe finds it cannot make its namespaces.
import { beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { landlockAbi } from "../../src/platform/landlock.ts";
import { jsonLines, mockScript, useZotHome, ZOT, zotEnv, type Run } from "./zot.ts";
import { tempDir } from "../helpers/temp.ts";

const e2e = useZotHome({ prefix: "zot-sandbox-report-" });

describe.skipIf(process.platform !== "linux" || landlockAbi() === 0)("where the sandbox is enforced", () => {
  test("--json starts with a start event naming the sandbox and the permission mode", async () => {
    const r = await e2e.run(["--json", "--provider", "mock", "hi"]);
    expect(r.code).toBe(0);
    const [first] = jsonLines(r.stdout);
    expect(first).toMatchObject({
      type: "start",
      provider: "mock",
      model: "mock",
      permission_mode: "yolo",
      sandbox: { mode: "workspace-write", enforced: true, network: false },
    });
    expect(String((first?.sandbox as { reason?: string } | undefined)?.reason)).toContain("Landlock");
  });

  // As root zot starts its launcher itself; through unshare (not root) only a path can be started.
  test.skipIf(process.getuid?.() !== 0)(
    "after the binary is removed from disk (a rebuild, an update), commands still run confined, by the running zot's own launcher",
    async () => {
      // A copy of its own, so replacing it disturbs no other test.
      const bin = join(e2e.root, "zot");
      copyFileSync(ZOT, bin);
      chmodSync(bin, 0o755);
      // Outside the workspace and every temp directory.
      const outside = tempDir(".zot-replaced-", homedir());
      const script = mockScript(e2e.root, [
        { tool_calls: [{ name: "bash", args: { command: "echo first; sleep 1" } }] },
        { tool_calls: [{ name: "bash", args: { command: `echo second; touch ${outside}/x` } }] },
        { text: "done" },
      ]);
      const proc = Bun.spawn([bin, "--json", "--no-session", "--permission-mode", "yolo", "--mock-script", script, "go"], {
        cwd: e2e.root,
        env: zotEnv(e2e.home),
        stdout: "pipe",
        stderr: "pipe",
      });
      const lines = (proc.stdout as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
      let seen = "";
      const results: Record<string, unknown>[] = [];
      for (;;) {
        const { value, done } = await lines.read();
        if (done) break;
        seen += value;
        const complete = seen.split("\n");
        seen = complete.pop() ?? "";
        for (const line of complete) {
          const ev = JSON.parse(line) as Record<string, unknown>;
          // While the first command runs, the file goes, as a rebuild or an uninstall removes it.
          if (ev.type === "tool_call" && results.length === 0) rmSync(bin);
          if (ev.type === "tool_result") results.push(ev);
        }
      }
      expect(await proc.exited).toBe(0);
      const text = results.map((r) => JSON.stringify(r.content));
      expect(text[0]).toContain("first");
      expect(text[1]).toContain("second");
      expect(text[1]).toContain("blocked by the sandbox");
      expect(existsSync(join(outside, "x"))).toBe(false);
    },
  );

  test("RPC's hello and get_state report the sandbox; --sandbox read-only and off are reported as such", async () => {
    const rpc = e2e.rpc(["--provider", "mock", "--sandbox", "read-only", "--sandbox-network"]);
    const hello = await rpc.request({ type: "hello" });
    expect(hello).toMatchObject({
      success: true,
      data: { protocol_version: 1, permission_mode: "yolo", sandbox: { mode: "read-only", enforced: true, network: true } },
    });
    const state = await rpc.request({ type: "get_state" });
    expect(state).toMatchObject({ success: true, data: { sandbox: { mode: "read-only", enforced: true, network: true } } });
    expect((await rpc.close()).code).toBe(0);
    const off = await e2e.run(["--json", "--provider", "mock", "--sandbox", "off", "hi"]);
    expect(jsonLines(off.stdout)[0]).toMatchObject({ type: "start", sandbox: { mode: "off", enforced: false } });
  });

  test("zot ext doctor has an agent sandbox line and field", async () => {
    const human = await e2e.run(["ext", "doctor", "--no-ext"]);
    expect(human.stdout).toMatch(/^agent sandbox: workspace-write, enforced \(Landlock ABI \d+ and namespaces\); new sessions start in yolo$/m);
    writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ sandbox: { mode: "read-only" }, permissionMode: "auto-edit" }));
    const json = await e2e.run(["ext", "doctor", "--json", "--no-ext"]);
    expect(JSON.parse(json.stdout).agent_sandbox).toMatchObject({ mode: "read-only", enforced: true, default_permission_mode: "auto-edit" });
  });
});

const canContain =
  process.platform === "linux" &&
  landlockAbi() > 0 &&
  process.getuid?.() === 0 &&
  existsSync("/usr/bin/unshare") &&
  existsSync("/usr/bin/setpriv") &&
  existsSync("/var/cache");

describe.skipIf(!canContain)("where the sandbox cannot be enforced (no nested namespaces, not root)", () => {
  let dir: string;
  beforeEach(() => {
    // Not a temp directory, and one that nobody can write: it is zot's home, cwd and $HOME.
    dir = tempDir("zot-no-userns-", "/var/cache");
    chmodSync(dir, 0o777);
  });

  /** Runs dist/zot as nobody in a user namespace that allows no further one. */
  async function contained(args: string[]): Promise<Run> {
    // The map must be written from outside, and the shell re-executed after it to hold its capabilities in the namespace.
    const inner = `echo 0 > /proc/sys/user/max_user_namespaces && exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@" </dev/null`;
    const outer = `read go && exec sh -c '${inner}' sh "$@"`;
    const env = ["env", "-i", "PATH=/usr/bin:/bin", `HOME=${dir}`, `ZOT_HOME=${join(dir, "zot-home")}`];
    const proc = Bun.spawn(["/usr/bin/unshare", "--user", "--", "/bin/sh", "-c", outer, "sh", ...env, ZOT, ...args], {
      cwd: dir,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const own = readlinkSync("/proc/self/ns/user");
    while (readlinkSync(`/proc/${proc.pid}/ns/user`) === own) await Bun.sleep(5);
    writeFileSync(`/proc/${proc.pid}/uid_map`, "0 0 65536\n");
    writeFileSync(`/proc/${proc.pid}/gid_map`, "0 0 65536\n");
    proc.stdin.write("go\n");
    await proc.stdin.end();
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  }

  test("print mode says so on stderr, starts in ask and refuses a command that is not read-only", async () => {
    const made = join(dir, "made");
    const r = await contained(["-p", "--provider", "mock", `call bash {"command":"touch ${made}"}`]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("zot: The workspace-write sandbox cannot be enforced here (this system does not let zot make namespaces");
    expect(r.stderr).toContain("commands run with your full rights, so in the ask mode every one that is not read-only is refused");
    expect(r.stderr).toContain("[tool] bash failed: permission mode ask");
    expect(existsSync(made)).toBe(false);
  });

  test("--json reports the sandbox as not enforced and the mode as ask; --permission-mode yolo is told it runs unconfined", async () => {
    const r = await contained(["--json", "--provider", "mock", "hi"]);
    expect(r.code).toBe(0);
    const [first] = jsonLines(r.stdout);
    expect(first).toMatchObject({ type: "start", permission_mode: "ask", sandbox: { mode: "workspace-write", enforced: false } });
    expect(String((first?.sandbox as { reason?: string } | undefined)?.reason)).toContain("namespaces");
    const yolo = await contained(["-p", "--provider", "mock", "--permission-mode", "yolo", "hi"]);
    expect(yolo.stderr).toContain("commands run with your full rights, unasked, as --permission-mode yolo says");
  });

  test("a verdict remembered from an earlier start that the kernel now contradicts refuses every command, is forgotten, and the next start says not enforced", async () => {
    // This boot's verdict as an enforced start records it, planted for nobody (whom the namespaces are now refused).
    const ok = await e2e.run(["-p", "--provider", "mock", "hi"]);
    expect(ok.code).toBe(0);
    const kept = JSON.parse(readFileSync(join(e2e.home, "sandbox-verdict.json"), "utf8"));
    const zotHome = join(dir, "zot-home");
    mkdirSync(zotHome, { mode: 0o700 });
    writeFileSync(join(zotHome, "sandbox-verdict.json"), JSON.stringify({ ...kept, uid: 65534 }), { mode: 0o600 });
    for (const p of [zotHome, join(zotHome, "sandbox-verdict.json")]) chownSync(p, 65534, 65534);

    const made = join(dir, "made");
    const r = await contained(["--json", "--provider", "mock", `call bash {"command":"touch ${made}"}`]);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines[0]).toMatchObject({ type: "start", permission_mode: "yolo", sandbox: { mode: "workspace-write", enforced: true } });
    const result = lines.find((l) => l.type === "tool_result");
    expect(JSON.stringify(result)).toContain(
      "[zot] sandbox: the sandbox cannot be set up now (this system does not let zot make namespaces (its command server exited with status 1)), although it could earlier in this boot",
    );
    expect(JSON.stringify(result)).toContain("the command was not run. Restart zot: it checks the sandbox again");
    expect(existsSync(made)).toBe(false);
    expect(existsSync(join(zotHome, "sandbox-verdict.json"))).toBe(false);

    const next = await contained(["--json", "--provider", "mock", "hi"]);
    expect(jsonLines(next.stdout)[0]).toMatchObject({ type: "start", permission_mode: "ask", sandbox: { enforced: false } });
  });

  test("zot ext doctor says the agent sandbox is not enforced and new sessions start in ask", async () => {
    const human = await contained(["ext", "doctor", "--no-ext"]);
    expect(human.stdout).toContain("agent sandbox: workspace-write, NOT enforced here (this system does not let zot make namespaces");
    expect(human.stdout).toContain("so new sessions start in ask");
    const json = await contained(["ext", "doctor", "--json", "--no-ext"]);
    expect(JSON.parse(json.stdout).agent_sandbox).toMatchObject({ mode: "workspace-write", enforced: false, default_permission_mode: "ask" });
  });
});
