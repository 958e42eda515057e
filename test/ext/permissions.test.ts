// Permission scopes: the manifest declaration, what each platform can enforce, and — on this
// Linux kernel — real Landlock enforcement of a real Python extension that tries to read, write,
// connect, read keys and start programs beyond its scope.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describePermissions, expandPermissions, parsePermissions, permissionsJson, type Permissions } from "../../src/ext/sandbox/scope.ts";
import { landlockAbi } from "../../src/platform/landlock.ts";
import { enforcement, scopedEnv, seatbeltProfile } from "../../src/ext/sandbox/confinement.ts";
import { probe as probeIn } from "./probe-host.ts";
import { tempDir } from "../helpers/temp.ts";

const perms = (raw: unknown): Permissions => {
  const r = parsePermissions(raw, "/x/extension.json");
  if (!r.ok) throw new Error(r.error);
  return r.permissions;
};

describe("the permissions declaration", () => {
  test("absent fields mean the least privilege", () => {
    expect(perms({})).toEqual({ fs: { read: [], write: [] }, net: false, env: [], exec: false, powers: [] });
  });

  test("every field is decoded", () => {
    const p = perms({
      fs: { read: ["$EXTENSION_DIR", "/etc/hosts"], write: ["$TMP/weather"] },
      net: { connect: ["api.example.com:443", ":8080"] },
      env: ["WEATHER_KEY"],
      exec: true,
      powers: ["rewrite_tool_calls", "submit_prompts"],
    });
    expect(p).toEqual({
      fs: { read: ["$EXTENSION_DIR", "/etc/hosts"], write: ["$TMP/weather"] },
      net: {
        connect: [
          { host: "api.example.com", port: 443 },
          { host: null, port: 8080 },
        ],
      },
      env: ["WEATHER_KEY"],
      exec: true,
      powers: ["rewrite_tool_calls", "submit_prompts"],
    });
  });

  test.each([
    [{ fs: { read: "/etc" } }, `field "permissions.fs.read" must be an array of paths, got string`],
    [{ fs: { read: ["relative/path"] } }, `field "permissions.fs.read[0]" is "relative/path", which is relative`],
    [{ fs: { write: ["~/.cache"] } }, `field "permissions.fs.write[0]" is "~/.cache"; "~" is not expanded`],
    [{ fs: { read: ["$HOME/x"] } }, `field "permissions.fs.read[0]" is "$HOME/x", which starts with an unknown placeholder`],
    [{ net: { connect: ["example.com"] } }, `field "permissions.net.connect[0]" is "example.com", which is not "host:port" or ":port"`],
    [{ net: { connect: [":70000"] } }, `field "permissions.net.connect[0]" is ":70000"`],
    [{ net: "yes" }, `field "permissions.net" must be true, false or {"connect": [...]}, got string`],
    [{ env: ["NOT A NAME"] }, `field "permissions.env[0]" is "NOT A NAME", which is not an environment variable name`],
    [{ exec: "no" }, `field "permissions.exec" must be true or false, got string`],
    [{ network: true }, `field "permissions.network" is not a known permission`],
    [{ powers: "rewrite_tool_calls" }, `field "permissions.powers" must be an array of power names`],
    [
      { powers: ["run_anything"] },
      `field "permissions.powers[0]" is "run_anything", which is not a power (known: rewrite_tool_calls, rewrite_tool_results, rewrite_assistant_text, submit_prompts, activate_tools)`,
    ],
  ])("%j is refused, naming the manifest and the field", (raw, message) => {
    const r = parsePermissions(raw, "/x/extension.json");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.startsWith("/x/extension.json: ")).toBe(true);
      expect(r.error).toContain(message);
    }
  });

  test("placeholders expand to absolute paths", () => {
    const p = expandPermissions(perms({ fs: { read: ["$EXTENSION_DIR/data", "$CWD"], write: ["$ZOT_HOME/cache", "$TMP"] } }), {
      extensionDir: "/ext/w",
      cwd: "/proj",
      home: "/home/u/.zot",
      tmp: "/tmp",
    });
    expect(p.fs).toEqual({ read: ["/ext/w/data", "/proj"], write: ["/home/u/.zot/cache", "/tmp"] });
    expect(describePermissions(permissionsJson(p))).toBe(
      "fs read: /ext/w/data, /proj; fs write: /home/u/.zot/cache, /tmp; net: none; env: none; exec: no; powers: none",
    );
  });
});

describe("what each platform enforces", () => {
  const linux = (abi: number, execGuard = true) => ({ platform: "linux", landlockAbi: abi, seatbelt: false, execGuard });
  test("an extension that declares nothing is unrestricted", () => {
    expect(enforcement(null, linux(7))).toBe("unrestricted");
  });
  test("Landlock with a network-capable ABI enforces the whole declaration", () => {
    expect(enforcement(perms({ net: { connect: [":443"] } }), linux(7))).toBe("enforced");
  });
  test("host names cannot be enforced, and an old ABI cannot filter the network: both said plainly", () => {
    expect(enforcement(perms({ net: { connect: ["api.example.com:443"] } }), linux(7))).toBe(
      "partial: host names in net.connect are not enforced (Landlock filters by port)",
    );
    expect(enforcement(perms({}), linux(3))).toBe("partial: network rules need Landlock ABI 4, the kernel has 3");
  });
  test("a kernel without the exec guard enforces exec: false only partly, and says so", () => {
    expect(enforcement(perms({}), linux(7, false))).toBe(
      "partial: exec: false holds only for programs outside the exec chain (the kernel lacks seccomp user notification or pidfd_getfd, Linux 5.6)",
    );
    expect(enforcement(perms({ exec: true }), linux(7, false))).toBe("enforced");
  });
  test("without Landlock or sandbox-exec the scope is advisory (only the environment is narrowed)", () => {
    expect(enforcement(perms({}), linux(0))).toBe("advisory");
    expect(enforcement(perms({}), { platform: "win32", landlockAbi: 0, seatbelt: false, execGuard: false })).toBe("advisory");
    expect(enforcement(perms({}), { platform: "darwin", landlockAbi: 0, seatbelt: true, execGuard: false })).toBe("enforced");
  });

  test("the environment keeps the basics and zot's variables, plus exactly the names declared", () => {
    const env = scopedEnv(
      { PATH: "/bin", HOME: "/h", LC_ALL: "C", ZOT_HOME: "/z", ANTHROPIC_API_KEY: "k1", OPENAI_API_KEY: "k2", ZOTCORE_RPC_TOKEN: "t", WEATHER_KEY: "w" },
      ["WEATHER_KEY", "ZOTCORE_RPC_TOKEN"],
    );
    expect(env).toEqual({ PATH: "/bin", HOME: "/h", LC_ALL: "C", ZOT_HOME: "/z", WEATHER_KEY: "w" });
  });

  test("the macOS profile denies by default and allows what is declared", () => {
    const profile = seatbeltProfile(perms({ fs: { write: ["/data"] }, net: { connect: [":443"] } }), {
      extensionDir: "/ext",
      grants: { programs: ["/usr/bin/python3"], files: [], trees: [], refused: [], notes: [] },
    });
    expect(profile).toStartWith("(version 1)\n(deny default)\n");
    expect(profile).toContain('(allow file-write* (subpath "/dev/null") (subpath "/dev/tty") (subpath "/data"))');
    expect(profile).toContain('(allow process-exec (literal "/usr/bin/python3"))');
    expect(profile).toContain('(allow network-outbound (remote tcp "*:443"))');
    expect(profile).not.toContain("(allow network*)");
    const open = seatbeltProfile(perms({ net: true, exec: true }), {
      extensionDir: "/ext",
      grants: { programs: [], files: [], trees: [], refused: [], notes: [] },
    });
    expect(open).toContain("(allow network*)");
    expect(open).toContain("(allow process-exec)\n");
  });
});

const HAS_LANDLOCK = process.platform === "linux" && landlockAbi() >= 6;

describe.skipIf(!HAS_LANDLOCK)("Landlock enforcement of a real extension", () => {
  let root: string;
  let secret: string;
  let server: ReturnType<typeof Bun.serve>;
  const KEY = "sk-ant-probe-0123456789";

  beforeAll(() => {
    root = tempDir("zot-perm-");
    mkdirSync(join(root, "user", ".ssh"), { recursive: true });
    secret = join(root, "user", ".ssh", "id_ed25519");
    writeFileSync(secret, "PRIVATE KEY MATERIAL\n");
    server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("hi") });
    process.env.ANTHROPIC_API_KEY = KEY;
  });
  afterAll(() => {
    server.stop(true);
    delete process.env.ANTHROPIC_API_KEY;
  });

  const probe = (permissions: unknown, prepare?: (dir: string) => void) => probeIn(root, permissions, { prepare });

  test("an extension that declares nothing keeps the user's full privileges", async () => {
    const p = await probe(undefined);
    try {
      expect(p.state.status).toBe("ready");
      expect(await p.attempt("read", secret)).toBe("allowed: PRIVATE KEY MATERIAL\n");
      expect(await p.attempt("env", "ANTHROPIC_API_KEY")).toBe(`allowed: ${KEY}`);
    } finally {
      await p.close();
    }
  });

  test("reading a private key outside the scope is denied; declaring it allows it", async () => {
    const denied = await probe({});
    try {
      expect(denied.state.status).toBe("ready");
      expect(await denied.attempt("read", secret)).toBe("denied: Permission denied");
      expect(await denied.attempt("read", join(denied.dir, "extension.json"))).toStartWith("allowed: {");
    } finally {
      await denied.close();
    }
    const allowed = await probe({ fs: { read: [join(root, "user", ".ssh")] } });
    try {
      expect(await allowed.attempt("read", secret)).toBe("allowed: PRIVATE KEY MATERIAL\n");
    } finally {
      await allowed.close();
    }
  });

  test("writing outside the scope, even in its own directory, is denied; a declared path is writable", async () => {
    const p = await probe({ fs: { write: ["$EXTENSION_DIR/cache"] } }, (dir) => mkdirSync(join(dir, "cache")));
    try {
      expect(await p.attempt("write", join(root, "planted.txt"))).toBe("denied: Permission denied");
      expect(await p.attempt("write", join(p.dir, "probe.py"))).toBe("denied: Permission denied");
      expect(await p.attempt("write", join(p.dir, "cache", "ok.txt"))).toBe(`allowed: wrote ${join(p.dir, "cache", "ok.txt")}`);
      expect(readFileSync(join(p.dir, "cache", "ok.txt"), "utf8")).toBe("written by probe\n");
    } finally {
      await p.close();
    }
  });

  test("a TCP connection to an undeclared 127.0.0.1 port is denied; a declared port connects", async () => {
    const port = String(server.port);
    const denied = await probe({});
    try {
      expect(await denied.attempt("connect", port)).toBe("denied: Permission denied");
    } finally {
      await denied.close();
    }
    const allowed = await probe({ net: { connect: [`:${port}`] } });
    try {
      expect(await allowed.attempt("connect", port)).toBe(`allowed: connected to ${port}`);
    } finally {
      await allowed.close();
    }
  });

  test("a provider key reaches the extension only when it names it, and zot's own environment stays unreadable", async () => {
    const denied = await probe({});
    try {
      expect(await denied.attempt("env", "ANTHROPIC_API_KEY")).toBe("denied: ANTHROPIC_API_KEY is not set");
      expect(await denied.attempt("read", `/proc/${process.pid}/environ`)).toBe("denied: Permission denied");
      expect(await denied.attempt("read", "/proc/self/status")).toStartWith("allowed: Name:");
    } finally {
      await denied.close();
    }
    const allowed = await probe({ env: ["ANTHROPIC_API_KEY"] });
    try {
      expect(await allowed.attempt("env", "ANTHROPIC_API_KEY")).toBe(`allowed: ${KEY}`);
    } finally {
      await allowed.close();
    }
  });

  test("a child process is refused without exec, and with exec it inherits the same file-system scope", async () => {
    const noExec = await probe({ fs: { read: [join(root, "user", ".ssh")] } });
    try {
      expect(await noExec.attempt("spawn", secret)).toBe("denied: Permission denied");
    } finally {
      await noExec.close();
    }
    const execNoRead = await probe({ exec: true });
    try {
      expect(await execNoRead.attempt("spawn", secret)).toBe(`denied: cat said /bin/cat: ${secret}: Permission denied`);
    } finally {
      await execNoRead.close();
    }
    const both = await probe({ exec: true, fs: { read: [join(root, "user", ".ssh")] } });
    try {
      expect(await both.attempt("spawn", secret)).toBe("allowed: PRIVATE KEY MATERIAL\n");
    } finally {
      await both.close();
    }
  });

  test("the log says which scope was enforced, and the denied access is there with its error", async () => {
    const p = await probe({});
    try {
      await p.attempt("read", secret);
    } finally {
      await p.close();
    }
    const log = p.log();
    expect(log).toContain("[zot] permissions (enforced): fs read: none; fs write: none; net: none; env: none; exec: no; powers: none");
    expect(log).toMatch(/\[zot\] sandbox: Landlock ABI \d+ enforced/);
    expect(log).toContain(`[probe] read ${secret} -> denied: Permission denied`);
  });
});
