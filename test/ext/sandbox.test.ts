// The kernel sandbox of a scoped extension, from the attacker's side: no implicit grant reaches the
// user's secrets, declared paths say what they grant, only zot's own ZOT_* variables pass,
// `exec: false` forbids every later program, and interpreters behind version-manager shims start.
// Real probe extensions under real Landlock and seccomp.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parsePermissions } from "../../src/ext/sandbox/scope.ts";
import { execGuardAvailable } from "../../src/ext/sandbox/exec-guard.ts";
import { landlockAbi } from "../../src/platform/landlock.ts";
import { lookPath } from "../../src/platform/exec-path.ts";
import { Host } from "../../src/ext/host.ts";
import { FAST, FIXTURES } from "./fixture-host.ts";
import { probe } from "./probe-host.ts";
import { tempDir } from "../helpers/temp.ts";

const HAS_LANDLOCK = process.platform === "linux" && landlockAbi() >= 6;

describe("declared paths", () => {
  test.each([
    ["$EXTENSION_DIR/../..", "$EXTENSION_DIR"],
    ["$EXTENSION_DIR/data/../../other", "$EXTENSION_DIR"],
    ["$CWD/..", "$CWD"],
    ["$TMP//etc", null],
  ])("%s is refused at load when it climbs out of its placeholder, naming the field", (path, placeholder) => {
    const r = parsePermissions({ fs: { read: ["$EXTENSION_DIR"], write: [path] } }, "/x/extension.json");
    if (placeholder === null) {
      // A doubled slash is not an absolute path in disguise: it stays inside $TMP.
      expect(r).toEqual({ ok: true, permissions: { fs: { read: ["$EXTENSION_DIR"], write: ["$TMP/etc"] }, net: false, env: [], exec: false, powers: [] } });
      return;
    }
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error).toBe(
        `/x/extension.json: field "permissions.fs.write[0]" is ${JSON.stringify(path)}, which climbs out of ${placeholder}; name a path inside ${placeholder}, or an absolute path; fix it in the manifest.`,
      );
  });

  test("paths are kept in their normal form, so consent and doctor show what is granted", () => {
    const r = parsePermissions({ fs: { read: ["$EXTENSION_DIR/./data/../cache/", "/etc//ssl/"] } }, "/x/extension.json");
    expect(r.ok && r.permissions.fs.read).toEqual(["$EXTENSION_DIR/cache", "/etc/ssl"]);
  });
});

describe.skipIf(!HAS_LANDLOCK)("no implicit grant reaches secrets", () => {
  let root: string;
  let user: string;
  let zotHome: string;
  const saved = { HOME: process.env.HOME, ZOT_SECRET_TEST: process.env.ZOT_SECRET_TEST };

  beforeAll(() => {
    root = tempDir("zot-sbx-");
    // The layout install.sh makes: ~/.local/bin/zot, ZOT_HOME=~/.local/state/zot.
    user = join(root, "user");
    zotHome = join(user, ".local", "state", "zot");
    mkdirSync(join(user, ".local", "bin"), { recursive: true });
    mkdirSync(join(zotHome, "extension-settings"), { recursive: true });
    writeFileSync(join(zotHome, "auth.json"), '{"anthropic":{"key":"sk-ant-secret"}}\n');
    writeFileSync(join(zotHome, "extension-settings", "other.json"), '{"values":{"token":"t0ps3cret"}}\n');
    process.env.HOME = user;
    process.env.ZOT_SECRET_TEST = "leaked";
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  test("a program in ~/.local/bin does not open ~/.local (and $ZOT_HOME in it) to a no-reads extension", async () => {
    const script = join(user, ".local", "bin", "probe-run");
    writeFileSync(script, "#!/usr/bin/python3\n" + readFileSync(join(FIXTURES, "probe", "probe.py"), "utf8"));
    chmodSync(script, 0o755);
    const p = await probe(root, {}, { manifest: { exec: script, args: [] }, home: zotHome, parent: join(zotHome, "extensions") });
    try {
      expect(p.state.status).toBe("ready");
      expect(await p.attempt("read", join(zotHome, "auth.json"))).toBe("denied: Permission denied");
      expect(await p.attempt("read", join(zotHome, "extension-settings", "other.json"))).toBe("denied: Permission denied");
      expect(p.state.granted?.refused).toEqual([`${join(user, ".local")} (it holds ${zotHome})`]);
    } finally {
      await p.close();
    }
    expect(p.log()).toContain(`[zot] sandbox grants: run /usr/bin/python3`);
    expect(p.log()).toContain(`not granted: ${join(user, ".local")} (it holds ${zotHome})`);
  });

  test("only the ZOT_* variables zot sets reach a scoped extension", async () => {
    const p = await probe(root, {}, { home: zotHome, parent: join(zotHome, "extensions") });
    try {
      expect(await p.attempt("env", "ZOT_SECRET_TEST")).toBe("denied: ZOT_SECRET_TEST is not set");
      expect(await p.attempt("env", "ZOT_HOME")).toBe(`allowed: ${zotHome}`);
      expect(await p.attempt("env", "ZOT_EXTENSION_DIR")).toBe(`allowed: ${p.dir}`);
    } finally {
      await p.close();
    }
  });

  test("a declared $EXTENSION_DIR path that a symlink leads out of is refused at start, naming the field", async () => {
    const p = await probe(
      root,
      { fs: { read: ["$EXTENSION_DIR/data"] } },
      { home: zotHome, parent: join(zotHome, "extensions"), prepare: (dir) => symlinkSync(zotHome, join(dir, "data")) },
    );
    try {
      expect(p.state.status).toBe("failed");
      expect(p.state.error).toContain(
        `failed to start: "permissions.fs.read[0]" is "$EXTENSION_DIR/data", which a symlink leads to ${zotHome}, outside $EXTENSION_DIR`,
      );
    } finally {
      await p.close();
    }
  });

  test("a declared path that does not exist is named in the log and in the warnings", async () => {
    const p = await probe(root, { fs: { read: ["$EXTENSION_DIR/missing"] } }, { home: zotHome, parent: join(zotHome, "extensions") });
    try {
      expect(p.state.status).toBe("ready");
      expect(p.state.warnings).toContain(`declared path ${join(p.dir, "missing")} does not exist, so the sandbox does not grant it`);
    } finally {
      await p.close();
    }
    expect(p.log()).toContain(`not found, so not granted: ${join(p.dir, "missing")}`);
  });
});

describe.skipIf(!HAS_LANDLOCK || !execGuardAvailable())("exec: false forbids every program after the extension's own", () => {
  let root: string;
  beforeAll(() => {
    root = tempDir("zot-exec-");
  });
  const loader = ["/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"].find((p) => existsSync(p))!;

  test("the interpreter again, the loader running a shell, and a memfd copy of a shell are all refused", async () => {
    const p = await probe(root, {});
    try {
      expect(p.state.status).toBe("ready");
      expect(await p.attempt("run", JSON.stringify(["/usr/bin/python3", "-c", "print('ran')"]))).toBe("denied: Permission denied");
      expect(await p.attempt("run", JSON.stringify([loader, "/bin/sh", "-c", "echo ran"]))).toBe("denied: Permission denied");
      expect(await p.attempt("memfd", "/bin/sh")).toBe("denied: Permission denied");
    } finally {
      await p.close();
    }
    expect(p.log()).toContain("seccomp exec guard on");
    expect(p.log()).toContain(`[zot] sandbox: denied starting a program`);
    expect(p.log()).toContain(`the scope does not allow it ("permissions.exec" is false)`);
  });

  test("with exec: true the same programs run", async () => {
    const p = await probe(root, { exec: true });
    try {
      expect(await p.attempt("run", JSON.stringify(["/usr/bin/python3", "-c", "print('ran')"]))).toBe("allowed: ran");
      expect(await p.attempt("memfd", "/bin/sh")).toBe("allowed: ran");
    } finally {
      await p.close();
    }
  });
});

const PYENV_SHIM = lookPath("python3", process.env);
const HAS_PYENV = PYENV_SHIM?.endsWith("/shims/python3") === true && existsSync(join(process.env.PYENV_ROOT ?? join(homedir(), ".pyenv"), "libexec", "pyenv"));

describe.skipIf(!HAS_LANDLOCK || !HAS_PYENV)("version-manager shims", () => {
  let root: string;
  beforeAll(() => {
    root = tempDir("zot-shim-");
  });

  test.each([[false], [true]])("exec python3 through the pyenv shim starts under a scope (exec: %p), and doctor says what it runs", async (exec) => {
    const p = await probe(root, { exec }, { manifest: { exec: "python3" } });
    try {
      expect(p.state.error).toBeNull();
      expect(p.state.status).toBe("ready");
      expect(p.state.granted?.notes[0]).toMatch(new RegExp(`^python3 is a pyenv shim \\(${PYENV_SHIM}\\); zot runs /.+/versions/[^/]+/bin/python3 directly$`));
      expect(p.state.granted?.trees.some((t) => /\/versions\/[^/]+$/.test(t))).toBe(true);
      expect(await p.attempt("read", join(homedir(), ".pyenv", "version"))).toBe("denied: Permission denied");
    } finally {
      await p.close();
    }
  });
});

describe.skipIf(!HAS_LANDLOCK)("denials explain themselves", () => {
  let root: string;
  beforeAll(() => {
    root = tempDir("zot-deny-");
  });

  /** A scoped shell-script extension that runs `body` and never says hello. */
  async function silent(body: string, permissions: unknown) {
    const dir = tempDir("ext-", root);
    writeFileSync(join(dir, "run.sh"), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, "run.sh"), 0o755);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "quiet", version: "1.0.0", exec: "./run.sh", permissions }));
    const home = tempDir("home-", root);
    const host = new Host({ ...FAST, helloMs: 1500 });
    await host.load({ extPaths: [dir], noExt: true, cwd: root, home, info: { zotVersion: "9", provider: "p", model: "m", cwd: root } });
    const state = host.states()[0]!;
    await host.shutdown();
    return state;
  }

  test("a hello timeout shows the last stderr line, and a program the scope forbids names permissions.exec", async () => {
    const s = await silent("/usr/bin/env true\nread line", {});
    expect(s.status).toBe("failed");
    expect(s.error).toMatch(
      /no hello within 1.5 s; it must write a hello frame to stdout first; its last words on stderr: ".*\/usr\/bin\/env: Permission denied"/,
    );
    expect(s.error).toContain(`the sandbox denied it: starting /usr/bin/env needs "permissions.exec": true`);
  });

  test("an exit before hello on a file outside the scope names permissions.fs.read and the file", async () => {
    const secret = join(root, "secret.txt");
    writeFileSync(secret, "s\n");
    const s = await silent(`read line < ${secret}`, {});
    expect(s.status).toBe("failed");
    expect(s.error).toContain("exited before hello with exit code 2");
    expect(s.error).toContain(`${secret}: Permission denied`);
    expect(s.error).toContain(
      `the sandbox denied it: add ${secret} (or a folder holding it) to "permissions.fs.read", or to "permissions.fs.write" to change it`,
    );
  });

  test("an unscoped extension's permission error is not blamed on a sandbox", async () => {
    const dir = tempDir("plain-", root);
    writeFileSync(join(dir, "run.sh"), "#!/bin/sh\necho 'open /x: Permission denied' >&2\nexit 3\n");
    chmodSync(join(dir, "run.sh"), 0o755);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "plain", version: "1.0.0", exec: "./run.sh" }));
    const home = tempDir("home-", root);
    const host = new Host(FAST);
    await host.load({ extPaths: [dir], noExt: true, cwd: root, home, info: { zotVersion: "9", provider: "p", model: "m", cwd: root } });
    const s = host.states()[0]!;
    await host.shutdown();
    expect(s.error).toContain('"open /x: Permission denied"');
    expect(s.error).not.toContain("sandbox");
  });
});
