// `zot ext config <name> [key=value…] [--unset key]…`: shows an extension's declared settings with
// their values (secrets only as set/unset), or sets and unsets them with type checks.
import type { Json } from "../../protocol.ts";
import { changeSettings, readStored, settingsFile, writeStored, type SettingSpec, type Stored } from "../../ext/install/settings.ts";
import { fail, type Ctx } from "../kit/context.ts";
import { findInstalled, notFound } from "./lookup.ts";
import { tableLines } from "../../platform/text-table.ts";

export type ConfigOptions = { assignments: string[]; unset: string[]; json: boolean };

type Row = { name: string; type: SettingSpec["type"]; description: string; required: boolean; default: Json | null; value: Json | null; set: boolean };

export async function config(ctx: Ctx, name: string, opts: ConfigOptions): Promise<number> {
  const found = await findInstalled(ctx, name);
  if (!found) return fail(ctx, notFound(ctx, name));
  const m = found.manifest;
  if (!m) return fail(ctx, `extension "${name}" has an unreadable manifest (${found.error ?? "unknown error"}); fix it first.`);
  if (m.settings.length === 0) return fail(ctx, `extension "${m.name}" declares no settings (its manifest has no "settings"); there is nothing to configure.`);
  const read = readStored(ctx.home, m.name);
  if (!read.ok) return fail(ctx, read.error);
  if (opts.assignments.length === 0 && opts.unset.length === 0) return show(ctx, m.name, m.settings, read.stored, opts.json);

  const set: [string, string][] = [];
  for (const a of opts.assignments) {
    const eq = a.indexOf("=");
    if (eq <= 0) return fail(ctx, `"${a}" is not key=value; write e.g. zot ext config ${m.name} ${m.settings[0]!.name}=VALUE.`);
    let text = a.slice(eq + 1);
    // `key=-` reads the value from stdin, so a secret need not sit in the shell's history.
    if (text === "-") {
      const input = ctx.stdin();
      text = input ? (await new Response(input).text()).replace(/\r?\n$/, "") : "";
    }
    set.push([a.slice(0, eq), text]);
  }
  const changed = changeSettings(m.name, m.settings, read.stored, set, opts.unset);
  if (!changed.ok) return fail(ctx, `${changed.error}; nothing was changed.`);
  const stored = changed.stored;
  const written = writeStored(ctx.home, m.name, stored);
  if (!written.ok) return fail(ctx, written.error);
  const names = [...set.map(([k]) => k), ...opts.unset.map((k) => `${k} (unset)`)];
  ctx.out.write(`updated ${names.join(", ")} for ${m.name} in ${written.path}; a running zot passes them on at /reload-ext ${m.name} or its next start.\n`);
  return 0;
}

function rows(settings: SettingSpec[], stored: Stored): Row[] {
  return settings.map((s) => {
    const v = stored.values[s.name];
    const secret = s.type === "secret";
    return {
      name: s.name,
      type: s.type,
      description: s.description,
      required: s.required,
      default: s.default ?? null,
      value: secret || v === undefined ? null : v,
      set: v !== undefined,
    };
  });
}

function show(ctx: Ctx, name: string, settings: SettingSpec[], stored: Stored, json: boolean): number {
  const list = rows(settings, stored);
  if (json) {
    ctx.out.write(JSON.stringify({ extension: name, file: settingsFile(ctx.home, name), settings: list }, null, 2) + "\n");
    return 0;
  }
  const shown = (r: Row): string => {
    if (r.type === "secret") return r.set ? "(set)" : "(unset)";
    if (r.set) return JSON.stringify(r.value);
    return r.default !== null ? `${JSON.stringify(r.default)} (default)` : "(unset)";
  };
  const table = list.map((r) => [r.name, r.type, shown(r), r.required ? "required" : "", r.description]);
  const header = ["SETTING", "TYPE", "VALUE", "", "DESCRIPTION"];
  for (const line of tableLines(header, table)) ctx.out.write(`${line.trimEnd()}\n`);
  const missing = list.filter((r) => r.required && !r.set && r.default === null);
  if (missing.length > 0)
    ctx.out.write(`\nmissing: ${missing.map((r) => r.name).join(", ")}; set with zot ext config ${name} ${missing.map((r) => `${r.name}=VALUE`).join(" ")}\n`);
  return 0;
}
