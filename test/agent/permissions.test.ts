// Permission modes, command-prefix rules and the per-project "always" approvals in permissions.json.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandPrefix, modeVerdict, nextMode, PermissionRules, ruleMatches } from "../../src/agent/permissions.ts";
import { projectRoot } from "../../src/platform/project-root.ts";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "zot-perm-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("modes", () => {
  test("shift+tab cycles ask, auto-approve edits, yolo and plan, then back to ask", () => {
    expect([nextMode("ask"), nextMode("edits"), nextMode("yolo"), nextMode("plan")]).toEqual(["edits", "yolo", "plan", "ask"]);
  });

  test("each mode decides which calls run, ask or are refused", () => {
    const v = (mode: Parameters<typeof modeVerdict>[0], tool: string) => modeVerdict(mode, tool, { path: "src/a.ts" }, "/repo/pkg", "/repo");
    expect(["read", "edit", "bash", "weather"].map((t) => v("ask", t))).toEqual(["ask", "ask", "ask", "ask"]);
    expect(["read", "edit", "write", "bash", "weather"].map((t) => v("edits", t))).toEqual(["run", "run", "run", "ask", "ask"]);
    expect(["read", "bash"].map((t) => v("yolo", t))).toEqual(["run", "run"]);
    expect(["read", "skill", "edit", "bash", "weather"].map((t) => v("plan", t))).toEqual(["run", "run", "refuse", "refuse", "refuse"]);
  });

  test("plan mode lets bash commands that only look run, and refuses the rest", () => {
    const plan = (command: string) => modeVerdict("plan", "bash", { command }, "/repo", "/repo");
    for (const c of ["ls -la", "rg -n TODO src", "git log --oneline -5", "git diff HEAD~1", "cat README.md"]) expect(plan(c)).toBe("run");
    for (const c of ["rm -rf x", "git commit -m x", "find . -delete", "rg --pre ./evil x", "cat a > b", "ls; rm x", "sed -i s/a/b/ f"]) expect(plan(c)).toBe("refuse");
  });

  test("auto-approved edits stay inside the project; an edit outside it asks", () => {
    expect(modeVerdict("edits", "write", { path: "../../etc/profile" }, "/repo/pkg", "/repo")).toBe("ask");
    expect(modeVerdict("edits", "edit", { path: "/home/u/.bashrc" }, "/repo", "/repo")).toBe("ask");
    expect(modeVerdict("edits", "write", { path: "../other/x" }, "/repo/pkg", "/repo")).toBe("run");
    expect(modeVerdict("edits", "write", {}, "/repo", "/repo")).toBe("ask");
  });

  test("a symlink inside the project that points outside it is outside", () => {
    const project = join(home, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(join(home, "outside.txt"), "x");
    symlinkSync(join(home, "outside.txt"), join(project, "link.txt"));
    expect(modeVerdict("edits", "write", { path: "link.txt" }, project, project)).toBe("ask");
    expect(modeVerdict("edits", "write", { path: "src/new/file.ts" }, project, project)).toBe("run");
  });
});

describe("command prefixes", () => {
  test("a subcommand tool keeps its subcommand, other programs only their name", () => {
    expect(commandPrefix("git status -s")).toBe("git status");
    expect(commandPrefix("npm test -- --watch")).toBe("npm test");
    expect(commandPrefix("ls -la src")).toBe("ls");
    expect(commandPrefix("git -C /tmp log")).toBe("git");
  });

  test("chained, substituted or redirected commands get no prefix", () => {
    for (const c of ["git status; rm -rf ~", "git status && rm x", "git status | sh", "echo $(id)", "echo `id`", "git log > out", "git status\nrm -rf ~", "cat ${HOME}"]) {
      expect(commandPrefix(c)).toBeNull();
    }
  });

  test("a prefix rule matches whole words of simple commands only", () => {
    const rule = { tool: "bash", prefix: "git status" };
    expect(ruleMatches(rule, "bash", { command: "git status" })).toBe(true);
    expect(ruleMatches(rule, "bash", { command: "  git   status -s" })).toBe(true);
    expect(ruleMatches(rule, "bash", { command: "git statusx" })).toBe(false);
    expect(ruleMatches(rule, "bash", { command: "git status; rm -rf ~" })).toBe(false);
    expect(ruleMatches(rule, "bash", { command: "git status\nrm -rf ~" })).toBe(false);
    expect(ruleMatches(rule, "edit", { command: "git status" })).toBe(false);
    expect(ruleMatches({ tool: "bash" }, "bash", { command: "anything; at all" })).toBe(true);
  });
});

describe("remembered approvals", () => {
  test("an always rule is written to permissions.json under the project and read by the next run", () => {
    const warnings: string[] = [];
    const first = new PermissionRules(home, "/work/project", (w) => warnings.push(w));
    expect(first.add({ tool: "bash", prefix: "npm test" }, true)).toEqual({ ok: true });
    first.add({ tool: "edit" }, false);
    const saved = JSON.parse(readFileSync(join(home, "permissions.json"), "utf8"));
    expect(saved).toEqual({ projects: { "/work/project": [{ tool: "bash", prefix: "npm test" }] } });

    const next = new PermissionRules(home, "/work/project", (w) => warnings.push(w));
    expect(next.allows("bash", { command: "npm test --silent" })).toBe(true);
    expect(next.allows("edit", { path: "x" })).toBe(false);
    expect(new PermissionRules(home, "/other", () => {}).allows("bash", { command: "npm test" })).toBe(false);
    expect(warnings).toEqual([]);
  });

  test("revoking a rule makes such calls ask again and keeps other projects' rules", () => {
    writeFileSync(join(home, "permissions.json"), JSON.stringify({ projects: { "/a": [{ tool: "edit" }], "/b": [{ tool: "write" }] }, note: "kept" }));
    const rules = new PermissionRules(home, "/a", () => {});
    rules.add({ tool: "bash" }, false);
    expect(rules.list()).toEqual([
      { rule: { tool: "edit" }, always: true },
      { rule: { tool: "bash" }, always: false },
    ]);
    expect(rules.revoke({ rule: { tool: "edit" }, always: true })).toEqual({ ok: true });
    expect(rules.revoke({ rule: { tool: "bash" }, always: false })).toEqual({ ok: true });
    expect(rules.allows("edit", {})).toBe(false);
    expect(rules.allows("bash", { command: "ls" })).toBe(false);
    expect(JSON.parse(readFileSync(join(home, "permissions.json"), "utf8"))).toEqual({ projects: { "/b": [{ tool: "write" }] }, note: "kept" });
  });

  test("a broken permissions.json is reported once, not overwritten, and nothing is allowed from it", () => {
    writeFileSync(join(home, "permissions.json"), "{not json");
    const warnings: string[] = [];
    const rules = new PermissionRules(home, "/a", (w) => warnings.push(w));
    expect(rules.allows("bash", { command: "ls" })).toBe(false);
    expect(rules.allows("bash", { command: "ls" })).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("permissions.json: it is not valid JSON");
    const added = rules.add({ tool: "bash" }, true);
    expect(added.ok).toBe(false);
    expect(readFileSync(join(home, "permissions.json"), "utf8")).toBe("{not json");
    expect(rules.allows("bash", { command: "ls" })).toBe(true);
  });
});

test("the project of a directory inside a git repository is the repository root", () => {
  mkdirSync(join(home, "repo", ".git"), { recursive: true });
  mkdirSync(join(home, "repo", "src", "deep"), { recursive: true });
  expect(projectRoot(join(home, "repo", "src", "deep"))).toBe(join(home, "repo"));
  mkdirSync(join(home, "loose"));
  expect(projectRoot(join(home, "loose"))).toBe(join(home, "loose"));
});
