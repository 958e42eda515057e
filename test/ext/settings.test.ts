// Extension settings handled by the host: the manifest schema, `zot ext config`, the 0600 store,
// needs_config instead of a crash, hello_ack.settings and settings_changed to a real extension, and
// secrets kept out of zot's own logs and traces.
import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Host } from "../../src/ext/host.ts";
import { parseSettingValue, parseSettingsSchema, type SettingSpec } from "../../src/ext/install/settings.ts";
import { waitFor } from "../helpers/wait.ts";
import { cli, tempDir } from "./cli-helpers.ts";
import { FAST, FIXTURES } from "./fixture-host.ts";
import { ZOT } from "../e2e/zot.ts";

const SECRET = "wx-secret-0123456789abcdef";

describe("the settings schema in a manifest", () => {
  test("every type is accepted with its description, default and required flag", () => {
    const r = parseSettingsSchema(
      [
        { name: "key", type: "secret", description: "d", required: true },
        { name: "units", type: "enum", values: ["a", "b"], default: "a" },
        { name: "n", type: "number", default: 3 },
        { name: "on", type: "boolean" },
        { name: "s", type: "string" },
      ],
      "/m.json",
    );
    expect(r.ok).toBe(true);
    if (r.ok)
      expect(r.settings.map((s) => [s.name, s.type, s.required, s.default])).toEqual([
        ["key", "secret", true, undefined],
        ["units", "enum", false, "a"],
        ["n", "number", false, 3],
        ["on", "boolean", false, undefined],
        ["s", "string", false, undefined],
      ]);
  });

  test.each([
    ["not an array", { name: "x" }, `field "settings" must be an array`],
    ["an unknown type", [{ name: "x", type: "color" }], `field "settings[0].type" must be one of string, number, boolean, enum, secret, got "color"`],
    ["an enum without values", [{ name: "x", type: "enum" }], `field "settings[0].values" must be a non-empty array of strings for an enum`],
    ["a default of the wrong type", [{ name: "x", type: "number", default: "three" }], `field "settings[0].default" must be a number, got string`],
    ["a secret with a default", [{ name: "x", type: "secret", default: "k" }], `field "settings[0].default" is not allowed for a secret`],
    [
      "a repeated name",
      [
        { name: "x", type: "string" },
        { name: "x", type: "number" },
      ],
      `field "settings[1].name" repeats the setting "x"`,
    ],
  ])("%s is refused, naming the manifest and field", (_what, raw, message) => {
    const r = parseSettingsSchema(raw, "/m.json");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(`/m.json: ${message}`);
  });

  test("values typed on the command line become the setting's type, or a clear error", () => {
    const spec = (type: SettingSpec["type"], values: string[] = []): SettingSpec => ({
      name: "v",
      type,
      description: "",
      default: undefined,
      required: false,
      values,
    });
    expect(parseSettingValue(spec("number"), "2.5")).toEqual({ ok: true, value: 2.5 });
    expect(parseSettingValue(spec("number"), "lots")).toEqual({ ok: false, error: `"v" is a number; "lots" is not one` });
    expect(parseSettingValue(spec("boolean"), "yes")).toEqual({ ok: true, value: true });
    expect(parseSettingValue(spec("boolean"), "maybe")).toEqual({ ok: false, error: `"v" is true or false; "maybe" is neither` });
    expect(parseSettingValue(spec("enum", ["metric", "imperial"]), "kelvin")).toEqual({
      ok: false,
      error: `"v" must be one of metric, imperial, got "kelvin"`,
    });
  });
});

function installed(): { home: string; cwd: string } {
  const home = tempDir();
  const cwd = tempDir();
  cpSync(join(FIXTURES, "configured"), join(home, "extensions", "configured"), { recursive: true });
  return { home, cwd };
}

describe("zot ext config", () => {
  test("lists the settings with defaults, secrets only as set or unset, and what is missing", async () => {
    const { home, cwd } = installed();
    const r = await cli(["config", "configured"], { home, cwd });
    expect(r.code).toBe(0);
    expect(
      r.out
        .split("\n")
        .slice(0, 5)
        .map((l) => l.replace(/\s+/g, " ")),
    ).toEqual([
      "SETTING TYPE VALUE DESCRIPTION",
      "api_key secret (unset) required Key for the weather service",
      'units enum "metric" (default) Units to report in',
      "retries number 2 (default) How often to retry",
      "verbose boolean (unset) Log every request",
    ]);
    expect(r.out).toContain("missing: api_key; set with zot ext config configured api_key=VALUE");
  });

  test("sets typed values into a 0600 file, keeps the secret out of the listing, and unsets", async () => {
    const { home, cwd } = installed();
    const set = await cli(["config", "configured", `api_key=${SECRET}`, "retries=5", "verbose=on", "units=imperial"], { home, cwd });
    expect(set.err).toBe("");
    expect(set.code).toBe(0);
    const file = join(home, "extension-settings", "configured.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, "extension-settings")).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ values: { api_key: SECRET, retries: 5, verbose: true, units: "imperial" }, secrets: ["api_key"] });

    const shown = await cli(["config", "configured", "--json"], { home, cwd });
    expect(shown.out).not.toContain(SECRET);
    const json = JSON.parse(shown.out);
    expect(json.settings.find((s: { name: string }) => s.name === "api_key")).toEqual({
      name: "api_key",
      type: "secret",
      description: "Key for the weather service",
      required: true,
      default: null,
      value: null,
      set: true,
    });

    const unset = await cli(["config", "configured", "--unset", "retries"], { home, cwd });
    expect(unset.code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).values.retries).toBeUndefined();
  });

  test("a value of the wrong type or an unknown key changes nothing and says what is wrong", async () => {
    const { home, cwd } = installed();
    const bad = await cli(["config", "configured", "retries=many", `api_key=${SECRET}`], { home, cwd });
    expect(bad.code).toBe(1);
    expect(bad.err).toBe(`zot: "retries" is a number; "many" is not one; nothing was changed.\n`);
    expect(existsSync(join(home, "extension-settings", "configured.json"))).toBe(false);
    const unknown = await cli(["config", "configured", "colour=red"], { home, cwd });
    expect(unknown.err).toBe(`zot: extension "configured" has no setting "colour" (its settings: api_key, units, retries, verbose); nothing was changed.\n`);
  });

  test("key=- reads the value from stdin, so a secret stays out of the shell history", async () => {
    const { home, cwd } = installed();
    const stdin = new Response(`${SECRET}\n`).body;
    const r = await cli(["config", "configured", "api_key=-"], { home, cwd, io: { stdin } });
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(home, "extension-settings", "configured.json"), "utf8")).values.api_key).toBe(SECRET);
  });

  test("an extension missing a required setting is needs_config in doctor and list, with the command to fix it, and is not started", async () => {
    const { home, cwd } = installed();
    const doctor = await cli(["doctor", "--json"], { home, cwd });
    const [e] = JSON.parse(doctor.out).extensions;
    expect(e.status).toBe("needs_config");
    expect(e.error).toBe('extension "configured" needs the setting "api_key"; run zot ext config configured api_key=VALUE');
    expect(e.startup_ms).toBeNull();
    const list = await cli(["list"], { home, cwd });
    expect(list.out).toMatch(/configured\s+1\.0\.0\s+global\s+needs_config/);
  });

  test("in -p, a command of an extension waiting for its settings says what to run, not only that it is unknown", async () => {
    const { home, cwd } = installed();
    const p = Bun.spawn([ZOT, "-p", "--provider", "mock", "/configured-cmd"], { cwd, env: { ...process.env, ZOT_HOME: home }, stdout: "pipe", stderr: "pipe" });
    const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
    expect(code).toBe(1);
    expect(err).toContain("unknown command /configured-cmd (no extension commands are loaded); not running: ");
    expect(err).toContain('extension "configured" needs the setting "api_key"; run zot ext config configured api_key=VALUE');
  });
});

describe("settings reach the extension", () => {
  test("hello_ack carries the values with defaults; a change is sent as settings_changed; secrets stay out of the trace", async () => {
    const { home, cwd } = installed();
    await cli(["config", "configured", `api_key=${SECRET}`], { home, cwd });
    const trace = join(home, "trace.jsonl");
    const host = new Host(FAST);
    const notes: string[] = [];
    host.onIntent((i) => {
      if (i.kind === "notify") notes.push(i.message);
    });
    try {
      await host.load({
        extPaths: [],
        noExt: false,
        cwd,
        home,
        traceFile: trace,
        mask: (t) => t.split(SECRET).join("[redacted]"),
        info: { zotVersion: "9", provider: "p", model: "m", cwd },
      });
      expect(host.states()[0]!.status).toBe("ready");
      const shown = await host.callTool("show_settings", {}, { signal: new AbortController().signal });
      expect(shown.content).toEqual([{ type: "text", text: `{"api_key": "len=${SECRET.length}", "retries": 2, "units": "metric"}` }]);

      const changed = await host.configure("configured", [["units", "imperial"]], []);
      expect(changed.ok).toBe(true);
      await waitFor(() => notes.find((n) => n.includes("imperial")), 10_000);
      expect(notes).toContain(`settings changed: {"api_key": "len=${SECRET.length}", "retries": 2, "units": "imperial"}`);
      const bad = await host.configure("configured", [["retries", "x"]], []);
      expect(bad).toEqual({ ok: false, error: `"retries" is a number; "x" is not one` });
    } finally {
      await host.shutdown();
    }
    const traced = readFileSync(trace, "utf8");
    expect(traced).toContain('"settings"');
    expect(traced).not.toContain(SECRET);
  });

  test("setting the missing value through the host starts the extension that waited for it", async () => {
    const { home, cwd } = installed();
    const host = new Host(FAST);
    try {
      await host.load({ extPaths: [], noExt: false, cwd, home, info: { zotVersion: "9", provider: "p", model: "m", cwd } });
      expect(host.states()[0]!.status).toBe("needs_config");
      const r = await host.configure("configured", [["api_key", SECRET]], []);
      expect(r.ok).toBe(true);
      expect(host.states()[0]!.status).toBe("ready");
    } finally {
      await host.shutdown();
    }
  });
});
