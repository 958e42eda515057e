// Permission scopes through the built binary: zot re-executes itself as the sandbox launcher, and
// the user's policy in config.json decides what may run without a declared scope.
import { beforeEach, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { landlockAbi } from "../../src/platform/landlock.ts";
import { ZOT, useZotHome } from "./zot.ts";

const PROBE = resolve(import.meta.dir, "../fixtures/ext/probe/probe.py");

const e2e = useZotHome({ prefix: "zot-perm-e2e-", homeDir: "home" });
let ext: string;

function probeExt(manifest: Record<string, unknown>): void {
  writeFileSync(join(ext, "extension.json"), JSON.stringify({ name: "probe", version: "1.0.0", exec: "/usr/bin/python3", args: ["probe.py"], ...manifest }));
}

beforeEach(() => {
  ext = join(e2e.root, "probe");
  mkdirSync(ext);
  copyFileSync(PROBE, join(ext, "probe.py"));
});

describe.skipIf(process.platform !== "linux" || landlockAbi() < 6)("the built binary as its own sandbox launcher", () => {
  test("doctor reports the declared scope as enforced, and a tool call outside it is denied", async () => {
    writeFileSync(join(e2e.root, "secret.txt"), "top secret\n");
    probeExt({ permissions: { env: ["WEATHER_KEY"] } });
    const doctor = await e2e.run(["ext", "doctor", "--json", "-e", ext], { cwd: e2e.root });
    expect(doctor.code).toBe(0);
    const [e] = JSON.parse(doctor.stdout).extensions;
    expect(e.status).toBe("ready");
    expect(e.sandbox).toBe("enforced");
    expect(e.permissions).toEqual({ fs: { read: [], write: [] }, net: false, env: ["WEATHER_KEY"], exec: false });

    const run = await e2e.run(
      ["--permission-mode", "yolo", "-p", "--provider", "mock", "-e", ext, `call probe {"action":"read","target":"${join(e2e.root, "secret.txt")}"}`],
      { cwd: e2e.root },
    );
    expect(run.stdout).toContain("denied: Permission denied");
    expect(run.stdout).not.toContain("top secret");
    const log = readFileSync(join(e2e.home, "logs", "ext-probe.log"), "utf8");
    expect(log).toMatch(/\[zot\] sandbox: Landlock ABI \d+ enforced/);
  });
});

describe.skipIf(process.platform !== "linux" || landlockAbi() < 6)("the launcher is no way around a scope", () => {
  test("an extension with permissions may not run zot itself as its program", async () => {
    probeExt({
      exec: ZOT,
      args: ["__sandbox", '{"handledFs":"0","handledNet":"0","scoped":"0","paths":[],"connectPorts":[]}', "/usr/bin/python3", "probe.py"],
      permissions: {},
    });
    const doctor = await e2e.run(["ext", "doctor", "--json", "-e", ext], { cwd: e2e.root });
    const [e] = JSON.parse(doctor.stdout).extensions;
    expect(e.status).toBe("failed");
    expect(e.error).toContain(`failed to start: its exec runs zot itself (${ZOT}), which an extension with "permissions" may not do`);
  });

  test("with exec: false the built binary's launcher refuses the interpreter run again", async () => {
    probeExt({ permissions: {} });
    const call = JSON.stringify({ action: "run", target: JSON.stringify(["/usr/bin/python3", "-c", "print('ran')"]) });
    const run = await e2e.run(["-p", "--provider", "mock", "-e", ext, `call probe ${call}`], { cwd: e2e.root });
    expect(run.stdout).toContain("denied: Permission denied");
    const log = readFileSync(join(e2e.home, "logs", "ext-probe.log"), "utf8");
    expect(log).toContain("seccomp exec guard on");
    expect(log).toContain('the scope does not allow it ("permissions.exec" is false)');
  });
});

describe.skipIf(process.platform !== "linux" || landlockAbi() < 6)("what cannot be enforced is said at start", () => {
  test("a host name in net.connect makes the scope partial, and the run says so", async () => {
    probeExt({ permissions: { net: { connect: ["api.example.com:443"] } } });
    const run = await e2e.run(["-p", "--provider", "mock", "-e", ext, "hi"], { cwd: e2e.root });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "Extension probe's permissions are enforced only in part (host names in net.connect are not enforced (Landlock filters by port)).",
    );
  });
});

describe("the user's policy for extensions that declare nothing", () => {
  test('"deny" refuses to start them, naming the setting and both ways out', async () => {
    probeExt({});
    writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ extensions: { unrestricted: "deny" } }));
    const r = await e2e.run(["ext", "doctor", "--json", "-e", ext], { cwd: e2e.root });
    expect(r.code).toBe(1);
    const [e] = JSON.parse(r.stdout).extensions;
    expect(e.status).toBe("invalid");
    expect(e.error).toBe(
      'extension "probe" declares no permissions and config.json has "extensions": {"unrestricted": "deny"}; ask its author to declare "permissions", or grant a scope in config.json "extensions.permissions.probe".',
    );
    expect(e.startup_ms).toBeNull();

    const run = await e2e.run(["-p", "--provider", "mock", "-e", ext, "hello"], { cwd: e2e.root });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'Extension probe did not load: extension "probe" declares no permissions and config.json has "extensions": {"unrestricted": "deny"}',
    );
    expect(readFileSync(join(e2e.home, "logs", "ext-probe.log"), "utf8")).not.toContain("registration complete");
  });

  test('"warn" starts them with a warning that they have the user\'s full privileges', async () => {
    probeExt({});
    writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ extensions: { unrestricted: "warn" } }));
    const r = await e2e.run(["ext", "doctor", "--json", "-e", ext], { cwd: e2e.root });
    const [e] = JSON.parse(r.stdout).extensions;
    expect(e.status).toBe("ready");
    expect(e.sandbox).toBe("unrestricted");
    expect(e.warnings).toContain('extension "probe" declares no permissions, so it runs with your full privileges');

    const run = await e2e.run(["-p", "--provider", "mock", "-e", ext, "hello"], { cwd: e2e.root });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'Extension probe declares no permissions, so it runs with your full privileges (config.json "extensions": {"unrestricted": "warn"}).',
    );
  });

  test("a scope in config.json replaces the manifest's, without editing it", async () => {
    probeExt({ permissions: { net: true, exec: true } });
    writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ extensions: { unrestricted: "deny", permissions: { probe: { fs: { read: ["$CWD"] } } } } }));
    const r = await e2e.run(["ext", "doctor", "--json", "-e", ext], { cwd: e2e.root });
    const [e] = JSON.parse(r.stdout).extensions;
    expect(e.permissions).toEqual({ fs: { read: ["$CWD"], write: [] }, net: false, env: [], exec: false });
  });

  test("a bad policy entry is a warning naming the file and key, and is ignored", async () => {
    probeExt({});
    writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ extensions: { unrestricted: "never", permissions: { probe: { net: "maybe" } } } }));
    const r = await e2e.run(["ext", "doctor", "--json", "-e", ext], { cwd: e2e.root });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${join(e2e.home, "config.json")}: "extensions.unrestricted" must be one of allow, warn, deny, got "never"; using "allow".`);
    expect(r.stderr).toContain(
      `"extensions.permissions.probe": field "permissions.net" must be true, false or {"connect": [...]}, got string; the override is ignored.`,
    );
  });
});
