// `/ext-config [name]`: an extension's declared settings as a small form — a list of the settings
// with their values (secrets only as set/unset); picking one asks for its value (a choice for enums
// and booleans, a masked prompt for secrets), stores it through the host, which tells the running
// extension (`settings_changed`), and returns to the list.
import type { ExtensionHost } from "../../ext/types.ts";
import type { SettingSpec } from "../../ext/install/settings.ts";
import type { Json } from "../../protocol.ts";
import { Picker, TextPrompt, type Modal } from "../components/pickers.ts";
import type { InfoLevel } from "../components/chat-log.ts";
import type { StyleRef } from "../components/component.ts";

export type FormContext = StyleRef & {
  host: ExtensionHost;
  openModal(modal: Modal | null): void;
  status(lines: { text: string; level: InfoLevel }[], ttlMs: number): void;
};

const STATUS_MS = 5000;

export function extConfig(ctx: FormContext, name: string): void {
  if (name === "") {
    const configurable = ctx.host.states().filter((s) => s.status !== "shadowed" && ctx.host.settings(s.name).ok);
    if (configurable.length === 0) return ctx.status([{ text: "No loaded extension declares settings.", level: "info" }], STATUS_MS);
    ctx.openModal(
      new Picker(ctx, {
        title: "Configure an extension",
        items: configurable.map((s) => s.name),
        row: (n) => ({ label: n }),
        key: (n) => n,
        onPick: (n) => extConfig(ctx, n),
      }),
    );
    return;
  }
  const current = ctx.host.settings(name);
  if (!current.ok) return ctx.status([{ text: `${current.error}.`, level: "error" }], STATUS_MS);
  ctx.openModal(
    new Picker<SettingSpec>(ctx, {
      title: `Settings of ${current.extension}`,
      items: current.specs,
      row: (s) => ({
        label: s.name,
        detail: `${shown(s, current.values[s.name])}  ${s.type}${s.required ? ", required" : ""}${s.description ? ` — ${s.description}` : ""}`,
      }),
      key: (s) => s.name,
      onPick: (s) => ask(ctx, current.extension, s),
    }),
  );
}

function shown(s: SettingSpec, v: Json | undefined): string {
  if (s.type === "secret") return v === undefined ? "(unset)" : "(set)";
  if (v !== undefined) return JSON.stringify(v);
  return s.default !== undefined ? `${JSON.stringify(s.default)} (default)` : "(unset)";
}

function ask(ctx: FormContext, extension: string, s: SettingSpec): void {
  const save = (value: string | null) => void store(ctx, extension, s, value);
  const choices = s.type === "enum" ? s.values : s.type === "boolean" ? ["true", "false"] : null;
  if (choices) {
    ctx.openModal(
      new Picker(ctx, {
        title: `${extension}: ${s.name}`,
        items: [...choices, ...(s.required ? [] : [UNSET])],
        row: (c) => ({ label: c === UNSET ? "(unset: use the default)" : c }),
        key: (c) => c,
        onPick: (c) => save(c === UNSET ? null : c),
        onCancel: () => extConfig(ctx, extension),
      }),
    );
    return;
  }
  ctx.openModal(
    new TextPrompt(ctx, {
      title: `${extension}: ${s.name}`,
      hint: `${s.type}${s.description ? ` — ${s.description}` : ""} · enter saves, empty unsets, esc goes back`,
      secret: s.type === "secret",
      onSubmit: (v) => save(v === "" ? null : v),
      onCancel: () => extConfig(ctx, extension),
    }),
  );
}

const UNSET = "\u0000unset";

async function store(ctx: FormContext, extension: string, s: SettingSpec, value: string | null): Promise<void> {
  const r = await ctx.host.configure(extension, value === null ? [] : [[s.name, value]], value === null ? [s.name] : []);
  if (r.ok)
    ctx.status(
      [
        {
          text: `${extension}: ${s.name} ${value === null ? "unset" : "saved"}${s.type === "secret" ? "" : value === null ? "" : ` (${value})`}; the extension got the new settings.`,
          level: "success",
        },
      ],
      STATUS_MS,
    );
  else ctx.status([{ text: `${extension}: ${r.error}; nothing was changed.`, level: "error" }], STATUS_MS);
  extConfig(ctx, extension);
}
