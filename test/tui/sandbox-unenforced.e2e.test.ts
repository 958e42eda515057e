// The TUI where the agent's sandbox cannot be enforced: zot runs as nobody inside a user namespace
// whose owner set user.max_user_namespaces to 0 (a container that forbids nested namespaces), so
// its probe cannot make the namespaces it confines commands with. The welcome line, the start
// notice and the status bar say so, and commands are asked about: the default mode is ask.
import { expect, test } from "bun:test";
import { chmodSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { landlockAbi } from "../../src/platform/landlock.ts";
import { useTmux } from "./helpers/tmux.ts";
import { tempDir } from "../helpers/temp.ts";

const tui = useTmux();
const canContain =
  process.platform === "linux" && landlockAbi() > 0 && process.getuid?.() === 0 && existsSync("/usr/bin/unshare") && existsSync("/usr/bin/setpriv");

/** Runs its arguments as nobody in a user namespace that allows no nested one; the map is written from outside. */
const CONTAINED = `#!/bin/bash
exec 3<&0
unshare --user -- sh -c 'until grep -q . /proc/self/uid_map; do sleep 0.02; done; exec sh -c "echo 0 > /proc/sys/user/max_user_namespaces && exec setpriv --reuid=65534 --regid=65534 --clear-groups \\"\\$@\\"" sh "$@"' sh "$@" 0<&3 &
pid=$!
until [ "$(readlink /proc/$pid/ns/user)" != "$(readlink /proc/self/ns/user)" ]; do sleep 0.01; done
echo "0 0 65536" > /proc/$pid/uid_map
echo "0 0 65536" > /proc/$pid/gid_map
wait $pid
`;

test.skipIf(!canContain)(
  "without an enforceable sandbox the TUI says so at start and asks before a command",
  async () => {
    const bin = tempDir("zot-contained-");
    tui.defer(() => rmSync(bin, { recursive: true, force: true }));
    const script = join(bin, "contained.sh");
    writeFileSync(script, CONTAINED);
    chmodSync(script, 0o755);
    const t = await tui.start({
      mode: null,
      width: 130,
      // nobody needs to reach the project and a home of its own.
      before: "chmod 755 .. && chmod 777 . && mkdir -m 777 ../nobody",
      wrapper: `${script} env ZOT_HOME="$PWD/../nobody" HOME="$PWD/../nobody"`,
    });
    let s = await t.waitFor("Ask anything");
    expect(s).toContain("zot · mock/mock · sandbox: workspace-write (not enforced)");
    s = await t.waitFor("so the ask mode asks before each one that is not read-only");
    expect(s.replace(/\s+/g, " ")).toContain("The workspace-write sandbox cannot be enforced here (this system does not let zot make namespaces");
    expect(s).toMatch(/sandbox: workspace-write \(not enforced\) · ask\s*$/m);
    t.send('call bash {"command":"touch made"}');
    s = await t.waitFor("Allow bash?");
    expect(s).toContain("$ touch made");
    expect(existsSync(join(t.cwd, "made"))).toBe(false);
  },
  40_000,
);
