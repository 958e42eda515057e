import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { jailRefusal, jailRoot } from "../../src/agent/jail.ts";
import { tempDir } from "../helpers/temp.ts";

let dir: string;
let cwd: string;
let root: string;
beforeEach(() => {
  dir = tempDir("zot-jail-");
  cwd = join(dir, "project");
  mkdirSync(join(cwd, "src"), { recursive: true });
  mkdirSync(join(dir, "outside"));
  symlinkSync(join(dir, "outside"), join(cwd, "escape"));
  root = jailRoot(cwd);
});

test("file tools may use paths inside the working directory, also files that do not exist yet", () => {
  for (const path of ["src", "src/new/file.ts", join(cwd, "a.txt"), "."]) expect(jailRefusal("write", { path }, cwd, root)).toBeNull();
});

test("file tools are refused paths outside it, through .., ~, absolute paths and symlinks", () => {
  for (const path of ["../outside/x", "/etc/passwd", "~/.ssh/id_rsa", "escape/secret.txt", "escape/new-dir/new.txt"]) {
    const refusal = jailRefusal("read", { path }, cwd, root);
    expect(refusal).toStartWith(`jailed: ${path} is outside ${root}`);
  }
});

test("bash refuses the obvious escapes and allows ordinary commands", () => {
  for (const command of ["cd / && ls", "ls; cd ..", "sudo rm x", "rm -rf ~", "chmod -R 777 .", "dd if=/dev/zero of=x"])
    expect(jailRefusal("bash", { command }, cwd, root)).toStartWith("jailed: ");
  for (const command of ["ls -la", "cd src && ls", "grep -r foo .", "rm -rf ./build"]) expect(jailRefusal("bash", { command }, cwd, root)).toBeNull();
});

test("tools other than the file tools and bash are not the jail's business", () => {
  expect(jailRefusal("skill", { name: "x" }, cwd, root)).toBeNull();
});
