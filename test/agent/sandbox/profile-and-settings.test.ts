// The parts of the sandbox that are text: config.json's "sandbox" object and flags, the macOS
// sandbox-exec profile (it cannot run on Linux, so its text is what is checked), and the labels.
import { expect, test } from "bun:test";
import { sandboxSettings } from "../../../src/agent/sandbox/settings.ts";
import { seatbeltProfile } from "../../../src/agent/sandbox/seatbelt.ts";
import { sandboxLabel } from "../../../src/agent/sandbox/status.ts";
import type { SandboxPolicy } from "../../../src/agent/sandbox/policy.ts";
import { parseArgv } from "../../../src/cli/args.ts";

const policy = (over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  mode: "workspace-write",
  network: false,
  workspace: "/Users/me/repo",
  writable: ["/Users/me/repo", "/private/tmp"],
  hidden: ["/Users/me/.ssh", "/Users/me/.zot"],
  reveal: ["/Users/me/.zot/spill"],
  userHome: "/Users/me",
  ...over,
});

test("config.json's sandbox object is read, and the flags win over it", () => {
  const raw = { mode: "read-only", network: true, writable: ["~/cache"], hidden: [".env"] };
  expect(sandboxSettings(raw, "config.json", {}).settings).toEqual({ mode: "read-only", network: true, writable: ["~/cache"], hidden: [".env"] });
  expect(sandboxSettings(raw, "config.json", { sandbox: "off", addDirs: ["/data"] }).settings).toMatchObject({ mode: "off", writable: ["~/cache", "/data"] });
  expect(sandboxSettings(undefined, "config.json", { sandboxNetwork: true }).settings).toEqual({
    mode: "workspace-write",
    network: true,
    writable: [],
    hidden: [],
  });
});

test("an unusable sandbox setting is a warning naming the file, and the default holds", () => {
  const r = sandboxSettings({ mode: "strict", hidden: "x" }, "/h/config.json", {});
  expect(r.settings.mode).toBe("workspace-write");
  expect(r.warnings).toEqual([
    `/h/config.json: "sandbox" "mode" must be read-only, workspace-write or off; it is ignored.`,
    `/h/config.json: "sandbox" "hidden" must be a list of paths; it is ignored.`,
  ]);
});

test("--sandbox, --add-dir and --sandbox-network parse, and a wrong mode is an error", () => {
  const r = parseArgv(["--sandbox", "read-only", "--add-dir", "/a", "--add-dir", "/b", "--sandbox-network", "-p", "hi"]);
  expect(r.kind === "run" && { s: r.args.sandbox, d: r.args.addDirs, n: r.args.sandboxNetwork }).toEqual({ s: "read-only", d: ["/a", "/b"], n: true });
  const bad = parseArgv(["--sandbox", "strict"]);
  expect(bad).toEqual({ kind: "error", message: `--sandbox must be read-only, workspace-write or off (got "strict").` });
});

test("the sandbox-exec profile denies by default, reads all but the hidden paths, writes only the writable ones, and has no network", () => {
  const text = seatbeltProfile(policy());
  const lines = text.trim().split("\n");
  expect(lines[0]).toBe("(version 1)");
  expect(lines[1]).toBe("(deny default)");
  expect(lines).toContain("(allow file-read*)");
  expect(lines).toContain(`(deny file-read* file-write* (subpath "/Users/me/.ssh") (subpath "/Users/me/.zot"))`);
  expect(lines).toContain(`(allow file-read* (subpath "/Users/me/.zot/spill"))`);
  // The hidden paths are denied after the blanket read (later rules win in SBPL).
  expect(lines.indexOf(`(deny file-read* file-write* (subpath "/Users/me/.ssh") (subpath "/Users/me/.zot"))`)).toBeGreaterThan(
    lines.indexOf("(allow file-read*)"),
  );
  expect(text).toContain(`(allow file-write* (subpath "/Users/me/repo") (subpath "/private/tmp") (literal "/dev/null")`);
  expect(text).toContain(`(allow network* (local ip "localhost:*") (remote ip "localhost:*") (remote unix-socket))`);
  expect(text).not.toContain("(allow network*)\n");
  expect(seatbeltProfile(policy({ network: true }))).toContain("(allow network*)\n");
});

test("a path with a quote in it stays one string in the profile", () => {
  expect(seatbeltProfile(policy({ writable: ['/Users/me/a"b'] }))).toContain(`(subpath "/Users/me/a\\"b")`);
});

test("the status bar and the welcome line name the mode, and say when it is not enforced", () => {
  expect(sandboxLabel({ mode: "workspace-write", enforced: true, network: false, reason: "" })).toBe("sandbox: workspace-write");
  expect(sandboxLabel({ mode: "read-only", enforced: true, network: true, reason: "" })).toBe("sandbox: read-only + network");
  expect(sandboxLabel({ mode: "workspace-write", enforced: false, network: false, reason: "" })).toBe("sandbox: workspace-write (not enforced)");
  expect(sandboxLabel({ mode: "off", enforced: false, network: true, reason: "" })).toBe("sandbox off");
});
