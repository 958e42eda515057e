// Code checkpoints over real files in temp dirs: what a rewind lists, that it brings files back byte
// for byte (changed, deleted, created, binary, changed by a shell command, outside the manifest),
// and that it can be undone.
import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Checkpoints, CHECKPOINT_LIMITS } from "../../src/agent/checkpoints.ts";
import { CheckpointStore, DEFAULT_PRUNE, pruneCheckpoints } from "../../src/agent/checkpoint-store.ts";
import { tempDir } from "../helpers/temp.ts";

let dir: string;
let ws: string;
let store: string;
beforeEach(() => {
  dir = tempDir("zot-cp-");
  ws = join(dir, "project");
  store = join(dir, "home", "checkpoints");
  mkdirSync(join(ws, "src"), { recursive: true });
  mkdirSync(join(ws, ".git"));
  writeFileSync(join(ws, ".git", "HEAD"), "ref: refs/heads/main\n");
});

const make = (limits = CHECKPOINT_LIMITS) => new Checkpoints(store, ws, { exclude: [join(dir, "home")], scan: true, limits, prune: DEFAULT_PRUNE });
const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256));

describe("a rewind of the files", () => {
  test("brings changed, deleted and binary files back byte for byte, removes created ones, and lists it all first", () => {
    writeFileSync(join(ws, "src", "a.ts"), "export const a = 1;\n");
    writeFileSync(join(ws, "logo.png"), binary);
    writeFileSync(join(ws, "gone.txt"), "keep me\n", { mode: 0o640 });
    const cp = make();
    const r = cp.record("p1");
    expect(r).toEqual({ ok: true, files: 3, stored: 20 + 3000 + 8 });

    writeFileSync(join(ws, "src", "a.ts"), "export const a = 2;\n");
    writeFileSync(join(ws, "logo.png"), Buffer.from("not a png"));
    rmSync(join(ws, "gone.txt"));
    mkdirSync(join(ws, "new", "deep"), { recursive: true });
    writeFileSync(join(ws, "new", "deep", "made.ts"), "x");
    // A shell command changes a file too: the scan sees it, not only write/edit.
    Bun.spawnSync(["sh", "-c", "printf 'by bash' > src/b.ts"], { cwd: ws });

    const plan = cp.plan("p1");
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.plan.changes).toEqual([
      { path: "gone.txt", action: "restore" },
      { path: "logo.png", action: "change" },
      { path: "new/deep/made.ts", action: "remove" },
      { path: "src/a.ts", action: "change" },
      { path: "src/b.ts", action: "remove" },
    ]);
    // Listing changes nothing.
    expect(readFileSync(join(ws, "src", "b.ts"), "utf8")).toBe("by bash");

    const done = cp.restore("p1", "code", null);
    if (!done.ok) throw new Error(done.error);
    expect(done.failed).toEqual([]);
    expect(readFileSync(join(ws, "src", "a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(readFileSync(join(ws, "logo.png")).equals(binary)).toBe(true);
    expect(readFileSync(join(ws, "gone.txt"), "utf8")).toBe("keep me\n");
    expect(statSync(join(ws, "gone.txt")).mode & 0o777).toBe(0o640);
    expect(existsSync(join(ws, "src", "b.ts"))).toBe(false);
    // The directories the removed file was in go with it.
    expect(existsSync(join(ws, "new"))).toBe(false);
    // The user's .git is never part of a checkpoint, and never touched.
    expect(readFileSync(join(ws, ".git", "HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
    expect(cp.plan("p1")).toEqual({ ok: true, plan: { changes: [], kept: [] } });
  });

  test("can be undone: the files return to what they were just before it, and undoing again redoes it", () => {
    writeFileSync(join(ws, "a.txt"), "one");
    const cp = make();
    cp.record("p1");
    writeFileSync(join(ws, "a.txt"), "two");
    writeFileSync(join(ws, "b.txt"), "created");
    const r = cp.restore("p1", "code", "/sessions/s1.jsonl");
    if (!r.ok) throw new Error(r.error);
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("one");
    expect(existsSync(join(ws, "b.txt"))).toBe(false);

    const plan = cp.undoPlan();
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.plan.changes).toEqual([
      { path: "a.txt", action: "change" },
      { path: "b.txt", action: "restore" },
    ]);
    expect(plan.session).toBe("/sessions/s1.jsonl");
    const u = cp.undo("/sessions/s2.jsonl");
    if (!u.ok) throw new Error(u.error);
    expect(u.session).toBe("/sessions/s1.jsonl");
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("two");
    expect(readFileSync(join(ws, "b.txt"), "utf8")).toBe("created");

    const again = cp.undo(null);
    if (!again.ok) throw new Error(again.error);
    expect(again.session).toBe("/sessions/s2.jsonl");
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("one");
    expect(existsSync(join(ws, "b.txt"))).toBe(false);
  });

  test("keeps files write/edit touch outside the manifest (ignored, outside the workspace) and restores them", () => {
    writeFileSync(join(ws, ".gitignore"), "*.log\n");
    writeFileSync(join(ws, "debug.log"), "old log");
    const outside = join(dir, "elsewhere.txt");
    writeFileSync(outside, "outside before");
    const cp = make();
    cp.record("p1");
    cp.touch(join(ws, "debug.log"));
    writeFileSync(join(ws, "debug.log"), "new log");
    cp.touch(outside);
    writeFileSync(outside, "outside after");
    const fresh = join(dir, "fresh.txt");
    cp.touch(fresh);
    writeFileSync(fresh, "made by write");
    // An ignored file no tool touched is neither listed nor changed.
    writeFileSync(join(ws, "other.log"), "untouched");

    const plan = cp.plan("p1");
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.plan.changes).toEqual([
      { path: outside, action: "change" },
      { path: fresh, action: "remove" },
      { path: "debug.log", action: "change" },
    ]);
    const r = cp.restore("p1", "code", null);
    if (!r.ok) throw new Error(r.error);
    expect(readFileSync(join(ws, "debug.log"), "utf8")).toBe("old log");
    expect(readFileSync(outside, "utf8")).toBe("outside before");
    expect(existsSync(fresh)).toBe(false);
    expect(readFileSync(join(ws, "other.log"), "utf8")).toBe("untouched");
  });

  test("a directory replaced by a symbolic link is never written through: the link goes, the directory comes back", () => {
    mkdirSync(join(ws, "lib"));
    writeFileSync(join(ws, "lib", "x.txt"), "inside");
    const cp = make();
    cp.record("p1");
    const outside = join(dir, "outside");
    mkdirSync(outside);
    rmSync(join(ws, "lib"), { recursive: true });
    symlinkSync(outside, join(ws, "lib"));
    const r = cp.restore("p1", "code", null);
    if (!r.ok) throw new Error(r.error);
    expect(r.plan.changes).toEqual([
      { path: "lib", action: "remove" },
      { path: "lib/x.txt", action: "restore" },
    ]);
    expect(r.failed).toEqual([]);
    expect(existsSync(join(outside, "x.txt"))).toBe(false);
    expect(readFileSync(join(ws, "lib", "x.txt"), "utf8")).toBe("inside");
  });

  test("a symbolic link the checkpoint does not manage (an ignored one) in the way of a file is reported, not written through", () => {
    writeFileSync(join(ws, ".gitignore"), "lib\n");
    mkdirSync(join(ws, "lib"));
    const cp = make();
    cp.record("p1");
    writeFileSync(join(ws, "lib", "x.txt"), "before");
    cp.touch(join(ws, "lib", "x.txt"));
    writeFileSync(join(ws, "lib", "x.txt"), "after");
    const outside = join(dir, "outside");
    mkdirSync(outside);
    rmSync(join(ws, "lib"), { recursive: true });
    symlinkSync(outside, join(ws, "lib"));
    const r = cp.restore("p1", "code", null);
    if (!r.ok) throw new Error(r.error);
    expect(r.failed).toEqual([`lib/x.txt: ${join(ws, "lib")} is now a symbolic link; move it away and rewind again`]);
    expect(existsSync(join(outside, "x.txt"))).toBe(false);
  });

  test("a file over the size limit is named as left alone, never deleted or half restored", () => {
    const limits = { ...CHECKPOINT_LIMITS, maxFileBytes: 100 };
    writeFileSync(join(ws, "big.bin"), Buffer.alloc(500, 1));
    const cp = make(limits);
    cp.record("p1");
    writeFileSync(join(ws, "big.bin"), Buffer.alloc(600, 2));
    writeFileSync(join(ws, "huge-new.bin"), Buffer.alloc(700, 3));
    const plan = cp.plan("p1");
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.plan.changes).toEqual([]);
    expect(plan.plan.kept.map((k) => k.path).sort()).toEqual(["big.bin", "huge-new.bin"]);
    cp.restore("p1", "code", null);
    expect(statSync(join(ws, "big.bin")).size).toBe(600);
    expect(statSync(join(ws, "huge-new.bin")).size).toBe(700);
  });

  test("checkpoints live in the store, survive a new process (a new Checkpoints), and an unchanged file is stored once", () => {
    writeFileSync(join(ws, "a.txt"), "same");
    make().record("p1");
    // mtime in the past, so the stat cache may trust it.
    utimesSync(join(ws, "a.txt"), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const later = make();
    const r = later.record("p2");
    expect(r).toEqual({ ok: true, files: 1, stored: 4 });
    const again = make().record("p3");
    expect(again).toEqual({ ok: true, files: 1, stored: 0 });
    writeFileSync(join(ws, "a.txt"), "changed");
    const back = make().restore("p1", "code", null);
    if (!back.ok) throw new Error(back.error);
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("same");
    expect(existsSync(join(ws, ".zot"))).toBe(false);
  });

  test("an unknown prompt says there is no checkpoint for it", () => {
    const r = make().plan("nope");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain("no code checkpoint for that prompt");
  });
});

describe("pruning", () => {
  test("drops checkpoints older than keep_days and the contents only they named", () => {
    writeFileSync(join(ws, "a.txt"), "old content");
    const cp = make();
    cp.record("p1");
    const s = CheckpointStore.of(store, ws);
    const old = Date.now() - 40 * 24 * 60 * 60 * 1000;
    // Age the journal row and the objects as if written 40 days ago.
    const journal = s.journalPath();
    writeFileSync(journal, readFileSync(journal, "utf8").replace(/"time":\d+/, `"time":${old}`));
    for (const p of Bun.spawnSync(["find", join(s.dir, "objects"), "-type", "f"])
      .stdout.toString()
      .trim()
      .split("\n"))
      utimesSync(p, new Date(old), new Date(old));
    expect(pruneCheckpoints(store, DEFAULT_PRUNE, Date.now(), true)).toBe(1);
    expect(s.rows()).toEqual([]);
    expect(Bun.spawnSync(["find", s.dir, "-path", "*/objects/*", "-type", "f"]).stdout.toString()).toBe("");
    expect(make().plan("p1").ok).toBe(false);
  });

  test("drops the oldest checkpoints until the store fits max_mib", () => {
    const cp = make();
    for (let i = 0; i < 5; i++) {
      writeFileSync(join(ws, "a.txt"), String(i).repeat(1000));
      cp.record(`p${i}`);
    }
    const dropped = pruneCheckpoints(store, { keepDays: 30, maxBytes: 2500 }, Date.now(), true);
    expect(dropped).toBeGreaterThan(0);
    const s = CheckpointStore.of(store, ws);
    expect(
      s
        .rows()
        .map((r) => (r.type === "checkpoint" ? r.id : ""))
        .at(-1),
    ).toBe("p4");
    expect(s.rows().some((r) => r.type === "checkpoint" && r.id === "p0")).toBe(false);
  });
});
