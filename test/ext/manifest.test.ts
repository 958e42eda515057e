import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseManifest, readManifest, resolveExec } from "../../src/ext/install/manifest.ts";
import { lookPath } from "../../src/platform/exec-path.ts";
import { tempDir } from "./cli-helpers.ts";

function extDir(): { dir: string; path: string; script: string } {
  const dir = tempDir();
  const script = join(dir, "run.sh");
  writeFileSync(script, "#!/bin/sh\n");
  chmodSync(script, 0o755);
  return { dir, path: join(dir, "extension.json"), script };
}

function errorOf(text: string, path: string): string {
  const r = parseManifest(text, path);
  if (r.ok) throw new Error("expected the manifest to be invalid");
  return r.error;
}

describe("parseManifest", () => {
  test("reads every field and resolves a relative exec against the manifest directory", () => {
    const { path, script } = extDir();
    const r = parseManifest(
      JSON.stringify({ name: "weather", version: "1.2.0", exec: "./run.sh", args: ["--x"], transport: null, language: "sh", description: "d", enabled: false }),
      path,
    );
    expect(r).toEqual({
      ok: true,
      manifest: {
        name: "weather",
        version: "1.2.0",
        exec: script,
        args: ["--x"],
        transport: null,
        language: "sh",
        description: "d",
        enabled: false,
        permissions: null,
        settings: [],
      },
    });
  });

  test("fills defaults and ignores unknown fields", () => {
    const { path, script } = extDir();
    const r = parseManifest(JSON.stringify({ name: "w", exec: "run.sh/../run.sh", homepage: "x", extra: { a: 1 } }), path);
    expect(r).toEqual({
      ok: true,
      manifest: {
        name: "w",
        version: null,
        exec: script,
        args: [],
        transport: null,
        language: null,
        description: null,
        enabled: true,
        permissions: null,
        settings: [],
      },
    });
  });

  test("names are checked case-insensitively against the pattern", () => {
    const { path } = extDir();
    expect(parseManifest(JSON.stringify({ name: "My.Ext_2-b", exec: "./run.sh" }), path).ok).toBe(true);
    for (const bad of ["", "-lead", ".dot", "has space", "slash/name", "a".repeat(65), "../up"]) {
      const error = errorOf(JSON.stringify({ name: bad, exec: "./run.sh" }), path);
      expect(error).toContain(path);
      expect(error).toContain('"name"');
    }
  });

  test("every error names the manifest path and the field", () => {
    const { path } = extDir();
    const cases: [object, string][] = [
      [{ exec: "./run.sh" }, "name"],
      [{ name: 5, exec: "./run.sh" }, "name"],
      [{ name: "x", exec: "./run.sh", version: 1 }, "version"],
      [{ name: "x", exec: "./run.sh", args: "a b" }, "args"],
      [{ name: "x", exec: "./run.sh", args: [1] }, "args"],
      [{ name: "x", exec: "./run.sh", language: [] }, "language"],
      [{ name: "x", exec: "./run.sh", description: {} }, "description"],
      [{ name: "x", exec: "./run.sh", enabled: "yes" }, "enabled"],
      [{ name: "x" }, "exec"],
      [{ name: "x", exec: "" }, "exec"],
      [{ name: "x", exec: 7 }, "exec"],
      [{ name: "x", exec: "./missing.sh" }, "exec"],
    ];
    for (const [manifest, field] of cases) {
      const error = errorOf(JSON.stringify(manifest), path);
      expect(error).toContain(path);
      expect(error).toContain(`"${field}"`);
    }
  });

  test("bad JSON and non-object manifests are invalid with the path in the message", () => {
    const { path } = extDir();
    expect(errorOf("{ nope", path)).toContain(path);
    expect(errorOf("[1,2]", path)).toContain(path);
  });

  test("a manifest whose name was valid reports it with the error", () => {
    const { path } = extDir();
    const r = parseManifest(JSON.stringify({ name: "named", exec: "./gone" }), path);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.name).toBe("named");
  });

  test("a disabled extension's exec is not required to exist", () => {
    const { dir, path } = extDir();
    const r = parseManifest(JSON.stringify({ name: "off", exec: "./not-built-yet", enabled: false }), path);
    expect(r).toMatchObject({ ok: true, manifest: { enabled: false, exec: join(dir, "not-built-yet") } });
    expect(parseManifest(JSON.stringify({ name: "off", exec: 5, enabled: false }), path).ok).toBe(false);
  });

  test("exec may be omitted only when allowed (theme-only directories)", () => {
    const { path } = extDir();
    const r = parseManifest(JSON.stringify({ name: "t" }), path, { allowMissingExec: true });
    expect(r.ok && r.manifest.exec).toBeNull();
  });

  test("readManifest reports a missing file", () => {
    const { path } = extDir();
    const r = readManifest(path);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(path);
  });
});

describe("exec resolution", () => {
  test("absolute paths are used as they are", () => {
    const { dir, script } = extDir();
    expect(resolveExec(script, "/elsewhere")).toEqual({ ok: true, path: script });
    expect(resolveExec(join(dir, "nope"), "/elsewhere").ok).toBe(false);
  });

  test("paths with a separator are relative to the manifest directory, including ../", () => {
    const { dir, script } = extDir();
    const sub = join(dir, "sub");
    mkdirSync(sub);
    expect(resolveExec("../run.sh", sub)).toEqual({ ok: true, path: script });
    expect(resolveExec("./run.sh", dir)).toEqual({ ok: true, path: script });
  });

  test("bare names are looked up on PATH", () => {
    const { dir, script } = extDir();
    const env = { PATH: `/nonexistent:${dir}` };
    expect(resolveExec("run.sh", "/elsewhere", env)).toEqual({ ok: true, path: script });
    expect(lookPath("run.sh", env)).toBe(script);
    const missing = resolveExec("zot-no-such-program", "/elsewhere", env);
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error).toContain("PATH");
  });

  test("a file without the executable bit, or a directory, is not a valid exec", () => {
    const { dir, script } = extDir();
    chmodSync(script, 0o644);
    const r = resolveExec("./run.sh", dir);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain("not executable");
    mkdirSync(join(dir, "bin"));
    expect(resolveExec("./bin", dir).ok).toBe(false);
    expect(lookPath("run.sh", { PATH: dir })).toBeNull();
  });
});
