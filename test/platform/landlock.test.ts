// The agent sandbox's rules are planned in zot's own process without asking the kernel its Landlock
// ABI (agent/sandbox/linux.ts asks for every right zot knows), and the launcher narrows them to its
// kernel's ABI (platform/landlock.ts `narrowedTo`, used by applyRuleset). What a kernel of each ABI
// is asked must be what a plan made for that ABI asked: nothing it does not know (it would refuse
// the ruleset), and nothing less (a right left unhandled is a right left open).
import { expect, test } from "bun:test";
import { confinement } from "../../src/agent/sandbox/linux.ts";
import { sandboxPolicy } from "../../src/agent/sandbox/policy.ts";
import { FS, READ_RIGHTS, SCOPE, fsRightsForAbi, narrowedTo } from "../../src/platform/landlock.ts";

const policy = sandboxPolicy(
  { mode: "workspace-write", network: false, writable: ["/srv/cache"], hidden: [] },
  { cwd: "/srv/project", zotHome: "/srv/home/.zot", userHome: "/srv/home" },
);

test("at every Landlock ABI, the kernel is asked for exactly the rights a plan made for that ABI asked for", () => {
  const { ruleset } = confinement(policy, false);
  for (let abi = 1; abi <= 7; abi++) {
    const known = fsRightsForAbi(abi);
    const asked = narrowedTo(ruleset, abi);
    expect(asked.handledFs).toBe(known);
    expect(asked.scoped).toBe(abi >= 6 ? SCOPE.SIGNAL : 0n);
    expect(asked.handledNet).toBe(0n);
    expect(asked.attrSize).toBe(abi >= 6 ? 24 : abi >= 4 ? 16 : 8);
    const allowed = new Map(ruleset.paths.map((r) => [r.path, r.access & asked.handledFs]));
    // The whole tree readable and executable (device ioctls from ABI 5), the workspace and the writable directories everything the ABI knows.
    expect(allowed.get("/")).toBe(READ_RIGHTS | FS.EXECUTE | (abi >= 5 ? FS.IOCTL_DEV : 0n));
    expect(allowed.get("/dev/null")).toBe(READ_RIGHTS | FS.WRITE_FILE | (abi >= 5 ? FS.IOCTL_DEV : 0n));
    for (const dir of ["/srv/project", "/srv/cache"]) expect(allowed.get(dir)).toBe(known);
  }
});
