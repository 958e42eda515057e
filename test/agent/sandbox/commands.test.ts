// The agent's commands under the real kernel sandbox (Landlock and namespaces): what each mode lets
// a command, its children and its background jobs read, write and reach, and what the result says.
import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { bashTool } from "../../../src/agent/tools/bash.ts";
import { sandboxPolicy, type SandboxMode, type SandboxPolicy } from "../../../src/agent/sandbox/policy.ts";
import { sandboxStatus } from "../../../src/agent/sandbox/status.ts";
import { textOf } from "../../../src/agent/content.ts";

let root: string;
/** Outside every writable place: not under a temp directory (those are writable in every mode). */
let outside: string;
let ws: string;
let userHome: string;
let zotHome: string;
/** A temp directory, writable in every confined mode. */
let scratch: string;

beforeEach(() => {
  // Not under a temp directory, so the workspace is writable only where the mode says.
  root = tempDir(".zot-sandbox-", homedir());
  scratch = tempDir("zot-sandbox-tmp-");
  outside = tempDir(".zot-sandbox-outside-", homedir());
  ws = join(root, "project");
  userHome = join(root, "home");
  zotHome = join(root, "zot-home");
  for (const d of [ws, join(userHome, ".ssh"), join(zotHome, "spill"), join(zotHome, "skills", "deploy")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(zotHome, "skills", "deploy", "SKILL.md"), "skill text\n");
  mkdirSync(join(ws, ".git"));
  writeFileSync(join(userHome, ".ssh", "id_ed25519"), "PRIVATE KEY\n");
  writeFileSync(join(userHome, ".netrc"), "machine x password hunter2\n");
  writeFileSync(join(zotHome, "auth.json"), '{"anthropic":{"api_key":"sk-secret"}}');
  writeFileSync(join(zotHome, "spill", "zot-bash-1.log"), "spilled output\n");
});

function policy(mode: SandboxMode, more: { network?: boolean; writable?: string[]; hidden?: string[] } = {}): SandboxPolicy {
  return sandboxPolicy({ mode, network: more.network ?? false, writable: more.writable ?? [], hidden: more.hidden ?? [] }, { cwd: ws, zotHome, userHome });
}

async function run(command: string, sandbox: SandboxPolicy | undefined) {
  const r = await bashTool.execute(
    { command },
    { cwd: ws, home: zotHome, signal: new AbortController().signal, progress: () => {}, ...(sandbox ? { sandbox } : {}) },
  );
  return { text: textOf(r.content), isError: r.isError, denial: r.sandboxDenial };
}

describe("the sandbox is enforced on this machine", () => {
  test("sandboxStatus reports workspace-write as enforced by Landlock and namespaces", () => {
    const s = sandboxStatus(policy("workspace-write"));
    expect(s).toEqual({ mode: "workspace-write", enforced: true, network: false, reason: expect.stringMatching(/^Landlock ABI \d+ and namespaces$/) });
    expect(sandboxStatus(policy("off"))).toMatchObject({ mode: "off", enforced: false });
  });
});

describe("workspace-write", () => {
  test("a command writes in the workspace and the temp directory, and not outside; the result says what was blocked", async () => {
    const tmpFile = join(scratch, "in-temp.txt");
    const r = await run(`echo ok > made.txt; echo t > ${tmpFile}; echo no > ${outside}/x.txt`, policy("workspace-write"));
    expect(readFileSync(join(ws, "made.txt"), "utf8")).toBe("ok\n");
    expect(readFileSync(tmpFile, "utf8")).toBe("t\n");
    expect(existsSync(join(outside, "x.txt"))).toBe(false);
    expect(r.text).toContain(`blocked by the sandbox: write outside the workspace to ${outside}/x.txt. In workspace-write mode`);
    expect(r.denial).toContain("write outside the workspace");
  });

  test("hidden secret files cannot be read, hidden directories show nothing, $ZOT_HOME's spill files and skills stay readable, not writable", async () => {
    const r = await run(
      `cat ${userHome}/.netrc; ls -A ${userHome}/.ssh; cat ${userHome}/.ssh/id_ed25519; cat ${zotHome}/auth.json; cat ${zotHome}/spill/zot-bash-1.log ${zotHome}/skills/deploy/SKILL.md; echo x >> ${zotHome}/skills/deploy/SKILL.md`,
      policy("workspace-write"),
    );
    expect(r.text).toContain("skill text");
    expect(readFileSync(join(zotHome, "skills", "deploy", "SKILL.md"), "utf8")).toBe("skill text\n");
    expect(r.text).not.toContain("hunter2");
    expect(r.text).not.toContain("PRIVATE KEY");
    expect(r.text).not.toContain("sk-secret");
    expect(r.text).toContain("spilled output");
    expect(r.text).toContain("~/.netrc is hidden (a secret location)");
    expect(readFileSync(join(userHome, ".netrc"), "utf8")).toContain("hunter2");
  });

  test("the config's hidden list hides a file inside the workspace, also from writes", async () => {
    writeFileSync(join(ws, ".env"), "TOKEN=abc\n");
    const r = await run("cat .env; echo X=1 >> .env", policy("workspace-write", { hidden: [".env"] }));
    expect(r.text).not.toContain("TOKEN=abc");
    expect(readFileSync(join(ws, ".env"), "utf8")).toBe("TOKEN=abc\n");
    expect(r.text).toContain(".env is hidden");
  });

  test("--add-dir makes another directory writable", async () => {
    await run(`echo yes > ${outside}/added.txt`, policy("workspace-write", { writable: [outside] }));
    expect(readFileSync(join(outside, "added.txt"), "utf8")).toBe("yes\n");
  });

  test("children and background jobs are confined like the command: a nested shell, a job started with &, a setsid-detached process", async () => {
    const r = await run(
      `sh -c 'touch ${outside}/child' 2>child.err; (sleep 0.2; touch ${outside}/bg 2>bg.err; echo $? > bg.status) & wait; setsid -w sh -c 'touch ${outside}/detached 2>detached.err'`,
      policy("workspace-write"),
    );
    for (const f of ["child", "bg", "detached"]) expect(existsSync(join(outside, f))).toBe(false);
    expect(readFileSync(join(ws, "bg.status"), "utf8").trim()).not.toBe("0");
    expect(readFileSync(join(ws, "bg.err"), "utf8")).toContain("Permission denied");
    expect(readFileSync(join(ws, "detached.err"), "utf8")).toContain("Permission denied");
    expect(r.isError).toBe(true);
  });

  test("a command cannot unmount what hides a secret", async () => {
    const r = await run(`umount ${userHome}/.ssh; cat ${userHome}/.ssh/id_ed25519`, policy("workspace-write"));
    expect(r.text).not.toContain("PRIVATE KEY");
  });

  test("no network unless it is allowed: a server on 127.0.0.1 outside is unreachable, and the result says why", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("reached") });
    try {
      const url = `http://127.0.0.1:${server.port}/`;
      const blocked = await run(`curl -sS --max-time 5 ${url}`, policy("workspace-write"));
      expect(blocked.text).not.toContain("reached");
      expect(blocked.text).toContain("no network access");
      const allowed = await run(`curl -sS --max-time 5 ${url}`, policy("workspace-write", { network: true }));
      expect(allowed.text).toContain("reached");
    } finally {
      server.stop(true);
    }
  });

  test("loopback inside the sandbox works: a command may serve and reach its own local port", async () => {
    const r = await run(
      `python3 -c "
import socket
s=socket.socket(); s.bind(('127.0.0.1',0)); s.listen(1)
c=socket.create_connection(s.getsockname()); print('local ok')"`,
      policy("workspace-write"),
    );
    expect(r.text).toContain("local ok");
  });
});

describe("read-only and off", () => {
  test("read-only: the workspace is not writable, the temp directory is", async () => {
    const tmpFile = join(scratch, "ro-temp.txt");
    const r = await run(`echo no > inside.txt; echo t > ${tmpFile}`, policy("read-only"));
    expect(existsSync(join(ws, "inside.txt"))).toBe(false);
    expect(readFileSync(tmpFile, "utf8")).toBe("t\n");
    expect(r.text).toContain("in the read-only sandbox");
  });

  test("off: today's behaviour, a command writes anywhere the user can", async () => {
    const r = await run(`echo yes > ${outside}/free.txt; cat ${userHome}/.netrc`, policy("off"));
    expect(readFileSync(join(outside, "free.txt"), "utf8")).toBe("yes\n");
    expect(r.text).toContain("hunter2");
    expect(r.denial).toBeUndefined();
  });
});

import { tempDir } from "../../helpers/temp.ts";
