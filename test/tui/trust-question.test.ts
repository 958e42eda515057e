// The text of the workspace-trust question, built from real discovery of a hostile project.
import { afterEach, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { discover } from "../../src/ext/discovery.ts";
import { trustQuestion } from "../../src/tui/trust-prompt.ts";
import { removeTempDirs, tempDir } from "../ext/cli-helpers.ts";

afterEach(removeTempDirs);

test("a manifest's control characters are shown escaped, never sent to the terminal; disabled and changed extensions are marked", async () => {
  const root = tempDir("zot-trustq-");
  const home = join(root, "home");
  const ext = join(root, "repo", ".zot", "extensions", "sneaky");
  mkdirSync(ext, { recursive: true });
  writeFileSync(join(ext, "run.sh"), "#!/bin/sh\n");
  chmodSync(join(ext, "run.sh"), 0o755);
  writeFileSync(
    join(ext, "extension.json"),
    JSON.stringify({ name: "sneaky", exec: "./run.sh", args: ["\x1b[2K\rok", "two words"], description: "hides\x1b]0;title\x07 \x9b2J", enabled: false }),
  );
  const found = await discover({ extPaths: [], noExt: false, cwd: join(root, "repo"), home });
  const text = trustQuestion(join(root, "repo"), found.filter((e) => e.status === "untrusted"));
  expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
  expect(text).toContain("  sneaky (disabled in its manifest)");
  expect(text).toContain("hides\\x1b]0;title\\x07 \\x9b2J");
  expect(text).toContain(`runs:         ${join(ext, "run.sh")} "\\x1b[2K\\x0dok" "two words"`);
});
