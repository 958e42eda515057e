// Permission modes and their default, read-only commands, scoped rules and the per-project
// "always" approvals in permissions.json.
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PermissionRule } from "../../src/agent/events.ts";
import { defaultPermissionMode, modeVerdict, nextMode, startingPermissionMode } from "../../src/agent/permission-modes.ts";
import { PermissionRules, rulesAllow, scopeLabel, suggestRules } from "../../src/agent/permission-rules.ts";
import { isReadOnlyCommand } from "../../src/agent/read-only-command.ts";
import { commandParts } from "../../src/agent/shell-words.ts";
import { projectRoot } from "../../src/platform/project-root.ts";
import { tempDir } from "../helpers/temp.ts";

let home: string;
beforeEach(() => {
  home = tempDir("zot-perm-");
});

describe("modes", () => {
  test("shift+tab cycles ask, auto-edit, yolo and plan, then back to ask", () => {
    expect([nextMode("ask"), nextMode("auto-edit"), nextMode("yolo"), nextMode("plan")]).toEqual(["auto-edit", "yolo", "plan", "ask"]);
  });

  test("the default is yolo inside an enforced sandbox and ask without one", () => {
    expect(defaultPermissionMode(true)).toBe("yolo");
    expect(defaultPermissionMode(false)).toBe("ask");
  });

  test("the command line beats the resumed session, which beats config.json, which beats the default", () => {
    expect(startingPermissionMode({ flag: "plan", session: "yolo", config: "auto-edit", sandboxEnforced: true })).toBe("plan");
    expect(startingPermissionMode({ session: "ask", config: "yolo", sandboxEnforced: true })).toBe("ask");
    expect(startingPermissionMode({ config: "auto-edit", sandboxEnforced: false })).toBe("auto-edit");
    expect(startingPermissionMode({ sandboxEnforced: true })).toBe("yolo");
    expect(startingPermissionMode({ sandboxEnforced: false })).toBe("ask");
  });

  test("each mode decides which calls run, ask or are refused", () => {
    const v = (mode: Parameters<typeof modeVerdict>[0], tool: string) =>
      modeVerdict(mode, tool, { path: "src/a.ts", command: "touch x" }, "/repo/pkg", "/repo");
    expect(["read", "skill", "edit", "bash", "weather"].map((t) => v("ask", t))).toEqual(["run", "run", "ask", "ask", "ask"]);
    expect(["read", "edit", "write", "bash", "weather"].map((t) => v("auto-edit", t))).toEqual(["run", "run", "run", "ask", "ask"]);
    expect(["read", "bash"].map((t) => v("yolo", t))).toEqual(["run", "run"]);
    expect(["read", "skill", "edit", "bash", "weather"].map((t) => v("plan", t))).toEqual(["run", "run", "refuse", "refuse", "refuse"]);
  });

  test("ask and plan let bash commands that only look run, and not the rest", () => {
    for (const mode of ["ask", "plan"] as const) {
      const verdict = (command: string) => modeVerdict(mode, "bash", { command }, "/repo", "/repo");
      for (const c of ["ls -la", "rg -n TODO src", "git log --oneline -5", "git diff HEAD~1", "cat README.md", "grep -rn x src | head -5"])
        expect(verdict(c)).toBe("run");
      for (const c of ["rm -rf x", "git commit -m x", "find . -delete", "rg --pre ./evil x", "cat a > b", "ls; rm x", "sed -i s/a/b/ f"])
        expect(verdict(c)).not.toBe("run");
    }
  });

  test("auto-approved edits stay inside the project; an edit outside it asks", () => {
    expect(modeVerdict("auto-edit", "write", { path: "../../etc/profile" }, "/repo/pkg", "/repo")).toBe("ask");
    expect(modeVerdict("auto-edit", "edit", { path: "/home/u/.bashrc" }, "/repo", "/repo")).toBe("ask");
    expect(modeVerdict("auto-edit", "write", { path: "../other/x" }, "/repo/pkg", "/repo")).toBe("run");
    expect(modeVerdict("auto-edit", "write", {}, "/repo", "/repo")).toBe("ask");
  });

  test("a symlink inside the project that points outside it is outside", () => {
    const project = join(home, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(join(home, "outside.txt"), "x");
    symlinkSync(join(home, "outside.txt"), join(project, "link.txt"));
    expect(modeVerdict("auto-edit", "write", { path: "link.txt" }, project, project)).toBe("ask");
    expect(modeVerdict("auto-edit", "write", { path: "src/new/file.ts" }, project, project)).toBe("run");
  });
});

describe("reading a command", () => {
  test("chains split into their simple commands, quotes removed, harmless redirections dropped", () => {
    const words = (c: string) => commandParts(c)?.map((p) => p.map((w) => w.text));
    expect(words(`npm test 2>&1 | tail -5 && git commit -m "a b; c"`)).toEqual([
      ["npm", "test"],
      ["tail", "-5"],
      ["git", "commit", "-m", "a b; c"],
    ]);
    expect(words("ls >/dev/null\nls -a")).toEqual([["ls"], ["ls", "-a"]]);
  });

  test("substitution, variables, file redirection, backgrounding, subshells and assignments are not read", () => {
    for (const c of [
      "echo $(id)",
      "echo `id`",
      "cat $HOME/x",
      'echo "$X"',
      "ls > out",
      "cat < in",
      "sleep 1 &",
      "(cd x; ls)",
      "PAGER=sh git log",
      "ls \\; rm x",
      "echo 'unclosed",
      "if true; then ls; fi",
      "ls |& cat",
      "a && && b",
    ]) {
      expect(commandParts(c)).toBeNull();
    }
  });

  test("read-only commands refuse the options that write files or run programs, abbreviated or clustered", () => {
    for (const c of [
      "git diff --output=x",
      "git diff --outp=x",
      "sort -o out in",
      "sort -ro out in",
      "tree -o out",
      "git grep -O x",
      "find . -exec rm {} ;",
      "rg --pre=sh x",
      "git branch new",
      "rg x *",
      "git -C /x status",
    ]) {
      expect(isReadOnlyCommand(c)).toBe(false);
    }
    for (const c of ["git --no-pager log -3", "git diff -- src", "ls *.ts", "git branch -a", "find . -name '*.ts'", "sort -k2 f | uniq"]) {
      expect(isReadOnlyCommand(c)).toBe(c !== "sort -k2 f | uniq");
    }
  });
});

describe("scoped rules", () => {
  const project = () => {
    const root = join(home, "project");
    mkdirSync(join(root, "src"), { recursive: true });
    return { cwd: root, root };
  };
  const bash = (command: string) => ({ command });

  test("a command gets its program and subcommand with more arguments allowed", () => {
    const scope = project();
    expect(suggestRules("bash", bash("npm test -- --watch"), scope, [])).toEqual([{ tool: "bash", command: "npm test", more: true }]);
    expect(suggestRules("bash", bash("touch a b"), scope, [])).toEqual([{ tool: "bash", command: "touch", more: true }]);
  });

  test("destructive and code-running programs get the exact command, never a bare prefix", () => {
    const scope = project();
    for (const c of [
      "rm -rf build",
      "dd if=/dev/zero of=x",
      "mkfs.ext4 /dev/sdb",
      "chmod -R 777 .",
      "git push --force origin main",
      "git push origin +main",
      "python3 script.py",
      "xargs rm",
      "bash -c 'ls'",
      "./run.sh",
      "git -C /x status",
    ]) {
      const [rule] = suggestRules("bash", bash(c), scope, []);
      expect(rule).toMatchObject({ tool: "bash", more: false });
    }
    const pushRule: PermissionRule = { tool: "bash", command: "git push", more: true };
    expect(rulesAllow([pushRule], "bash", bash("git push origin main"), scope)).toBe(true);
    expect(rulesAllow([pushRule], "bash", bash("git push --force origin main"), scope)).toBe(false);
    expect(rulesAllow([pushRule], "bash", bash("git push -f"), scope)).toBe(false);
    const chmod: PermissionRule = { tool: "bash", command: "chmod", more: true };
    expect(rulesAllow([chmod], "bash", bash("chmod 644 src/a"), scope)).toBe(true);
    expect(rulesAllow([chmod], "bash", bash("chmod -R 777 src"), scope)).toBe(false);
    const rm: PermissionRule = { tool: "bash", command: "rm -rf build", more: false };
    expect(rulesAllow([rm], "bash", bash("rm -rf build"), scope)).toBe(true);
    expect(rulesAllow([rm], "bash", bash("rm -rf build ~"), scope)).toBe(false);
    expect(rulesAllow([rm], "bash", bash("rm -rf src"), scope)).toBe(false);
  });

  test("the further arguments a rule allows never name a path outside the project", () => {
    const scope = project();
    const cp: PermissionRule = { tool: "bash", command: "cp", more: true };
    expect(rulesAllow([cp], "bash", bash("cp src/a src/b"), scope)).toBe(true);
    for (const c of ["cp src/a /etc/x", "cp src/a ~/.bashrc", "cp src/a ../elsewhere", "cp --target-directory=/tmp src/a", "cp src/a ~other/x"]) {
      expect(rulesAllow([cp], "bash", bash(c), scope)).toBe(false);
    }
  });

  test("a chain gets one rule per part that is not read-only or already allowed, and is allowed only when every part is", () => {
    const scope = project();
    const held: PermissionRule[] = [{ tool: "bash", command: "npm install", more: true }];
    const rules = suggestRules("bash", bash("npm install && npm test 2>&1 | tail -5; make build"), scope, held);
    expect(rules).toEqual([
      { tool: "bash", command: "npm test", more: true },
      { tool: "bash", command: "make build", more: true },
    ]);
    expect(scopeLabel(rules, scope.root)).toBe("`npm test …` and `make build …`");
    expect(rulesAllow([...held, ...rules], "bash", bash("npm test && make build"), scope)).toBe(true);
    expect(rulesAllow([...held, ...rules], "bash", bash("npm test && rm -rf src"), scope)).toBe(false);
    expect(suggestRules("bash", bash("echo $(id)"), scope, [])).toEqual([]);
  });

  test("an edit inside the project gets its directory, one outside only that file", () => {
    const scope = project();
    const inside = suggestRules("edit", { path: "src/a.ts" }, scope, []);
    expect(inside).toEqual([{ tool: "edit", dir: join(scope.root, "src") }]);
    expect(scopeLabel(inside, scope.root)).toBe("edits to files under src/");
    expect(rulesAllow(inside, "edit", { path: "src/deep/b.ts" }, scope)).toBe(true);
    expect(rulesAllow(inside, "edit", { path: "README.md" }, scope)).toBe(false);
    expect(rulesAllow(inside, "write", { path: "src/a.ts" }, scope)).toBe(false);
    writeFileSync(join(home, "outside.txt"), "x");
    const outside = suggestRules("write", { path: "../outside.txt" }, scope, []);
    expect(outside).toEqual([{ tool: "write", path: join(home, "outside.txt") }]);
    expect(rulesAllow(outside, "write", { path: join(home, "other.txt") }, scope)).toBe(false);
    expect(suggestRules("edit", { path: "top.ts" }, scope, [])).toEqual([{ tool: "edit", dir: scope.root }]);
    expect(scopeLabel([{ tool: "edit", dir: scope.root }], scope.root)).toBe("edits to any file in this project");
  });

  test("an extension tool's rule is the tool", () => {
    expect(suggestRules("weather", { city: "Rome" }, project(), [])).toEqual([{ tool: "weather" }]);
  });
});

describe("remembered approvals", () => {
  test("an always rule is written to permissions.json under the project and read by the next run", () => {
    const warnings: string[] = [];
    const first = new PermissionRules(home, "/work/project", (w) => warnings.push(w));
    expect(first.add([{ tool: "bash", command: "npm test", more: true }], true)).toEqual({ ok: true });
    first.add([{ tool: "edit" }], false);
    const saved = JSON.parse(readFileSync(join(home, "permissions.json"), "utf8"));
    expect(saved).toEqual({ projects: { "/work/project": [{ tool: "bash", command: "npm test", more: true }] } });

    const scope = { cwd: "/work/project", root: "/work/project" };
    const next = new PermissionRules(home, "/work/project", (w) => warnings.push(w));
    expect(rulesAllow(next.all(), "bash", { command: "npm test --silent" }, scope)).toBe(true);
    expect(rulesAllow(next.all(), "edit", { path: "x" }, scope)).toBe(false);
    expect(new PermissionRules(home, "/other", () => {}).all()).toEqual([]);
    expect(warnings).toEqual([]);
  });

  test("an earlier version's prefix rule still reads, as that command with more arguments", () => {
    writeFileSync(
      join(home, "permissions.json"),
      JSON.stringify({
        projects: {
          "/a": [
            { tool: "bash", prefix: "git  status" },
            { tool: "edit", dir: "relative" },
          ],
        },
      }),
    );
    const warnings: string[] = [];
    const rules = new PermissionRules(home, "/a", (w) => warnings.push(w));
    expect(rules.all()).toEqual([{ tool: "bash", command: "git status", more: true }]);
    expect(warnings[0]).toContain("Skipped 1 malformed rule");
  });

  test("revoking a rule makes such calls ask again and keeps other projects' rules", () => {
    writeFileSync(join(home, "permissions.json"), JSON.stringify({ projects: { "/a": [{ tool: "edit" }], "/b": [{ tool: "write" }] }, note: "kept" }));
    const rules = new PermissionRules(home, "/a", () => {});
    rules.add([{ tool: "weather" }], false);
    expect(rules.list()).toEqual([
      { rule: { tool: "edit" }, always: true, label: "edit (every call)" },
      { rule: { tool: "weather" }, always: false, label: "weather (every call)" },
    ]);
    const [edit, weather] = rules.list();
    expect(rules.revoke(edit!)).toEqual({ ok: true });
    expect(rules.revoke(weather!)).toEqual({ ok: true });
    expect(rules.all()).toEqual([]);
    expect(JSON.parse(readFileSync(join(home, "permissions.json"), "utf8"))).toEqual({ projects: { "/b": [{ tool: "write" }] }, note: "kept" });
  });

  test("a broken permissions.json is reported once, not overwritten, and nothing is allowed from it", () => {
    writeFileSync(join(home, "permissions.json"), "{not json");
    const warnings: string[] = [];
    const rules = new PermissionRules(home, "/a", (w) => warnings.push(w));
    expect(rules.all()).toEqual([]);
    expect(rules.all()).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("permissions.json: it is not valid JSON");
    const added = rules.add([{ tool: "weather" }], true);
    expect(added.ok).toBe(false);
    expect(readFileSync(join(home, "permissions.json"), "utf8")).toBe("{not json");
    expect(rules.all()).toEqual([{ tool: "weather" }]);
  });
});

test("the project of a directory inside a git repository is the repository root", () => {
  mkdirSync(join(home, "repo", ".git"), { recursive: true });
  mkdirSync(join(home, "repo", "src", "deep"), { recursive: true });
  expect(projectRoot(join(home, "repo", "src", "deep"))).toBe(join(home, "repo"));
  mkdirSync(join(home, "loose"));
  expect(projectRoot(join(home, "loose"))).toBe(join(home, "loose"));
});
