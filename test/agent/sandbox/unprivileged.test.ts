// The sandbox for a user who is not root: util-linux `unshare` makes the user namespace, zot's
// launcher hides the secrets and Landlock confines writes, as for root. Run as `nobody` through
// setpriv from this (root) test process.
import { beforeEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../../..");
const BUN = join(ROOT, "node_modules", ".bin", "bun");
/** Not a temp directory (those are writable in every confined mode), and one `nobody` can traverse. */
const BASE = "/var/cache";
const canSwitch = process.getuid?.() === 0 && existsSync("/usr/bin/setpriv") && existsSync(BASE);

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-sandbox-nobody-", BASE);
  for (const d of ["project", "home/.ssh", "zot-home"]) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, "home", ".ssh", "id_rsa"), "PRIVATE KEY\n");
  writeFileSync(join(dir, "home", ".netrc"), "password hunter2\n");
  for (const d of ["", "project", "home", "home/.ssh", "zot-home"]) chmodSync(join(dir, d), 0o777);
  chmodSync(join(dir, "home", ".netrc"), 0o644);
  chmodSync(join(dir, "home", ".ssh", "id_rsa"), 0o644);
});

test.skipIf(!canSwitch)(
  "as an unprivileged user, secrets are hidden, writes and the network are blocked in read-only mode",
  async () => {
    const script = join(dir, "run.ts");
    // Read-only mode: the workspace, writable by nobody as far as file modes go, is not writable in the sandbox.
    writeFileSync(
      script,
      `import { bashTool } from ${JSON.stringify(join(ROOT, "src/agent/tools/bash.ts"))};
import { sandboxPolicy } from ${JSON.stringify(join(ROOT, "src/agent/sandbox/policy.ts"))};
import { sandboxStatus } from ${JSON.stringify(join(ROOT, "src/agent/sandbox/status.ts"))};
const p = sandboxPolicy({ mode: "read-only", network: false, writable: [], hidden: [] }, { cwd: ${JSON.stringify(join(dir, "project"))}, zotHome: ${JSON.stringify(join(dir, "zot-home"))}, userHome: ${JSON.stringify(join(dir, "home"))} });
const r = await bashTool.execute({ command: "id -u; cat ${join(dir, "home", ".netrc")} ${join(dir, "home", ".ssh", "id_rsa")}; echo x > made.txt; curl -sS --max-time 3 http://1.1.1.1/" }, { cwd: ${JSON.stringify(join(dir, "project"))}, home: ${JSON.stringify(join(dir, "zot-home"))}, signal: new AbortController().signal, progress: () => {}, sandbox: p });
console.log(JSON.stringify({ status: sandboxStatus(p), text: r.content.map((c) => (c.type === "text" ? c.text : "")).join("") }));
`,
    );
    chmodSync(script, 0o644);
    const p = Bun.spawn(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", BUN, script], {
      cwd: dir,
      env: { ...process.env, HOME: join(dir, "home") },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect({ code, err: err.trim() }).toEqual({ code: 0, err: "" });
    const r = JSON.parse(out.trim().split("\n").at(-1)!) as { status: { enforced: boolean }; text: string };
    expect(r.status.enforced).toBe(true);
    expect(r.text).not.toContain("hunter2");
    expect(r.text).not.toContain("PRIVATE KEY");
    expect(existsSync(join(dir, "project", "made.txt"))).toBe(false);
    expect(r.text).toContain("in the read-only sandbox");
    expect(r.text).toContain("no network access");
  },
  60_000,
);

import { tempDir } from "../../helpers/temp.ts";
