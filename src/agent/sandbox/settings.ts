// The user's sandbox choices: config.json's `"sandbox": {"mode", "network", "writable", "hidden"}`,
// decoded with a warning for anything unusable, under the command line's `--sandbox`, `--add-dir`
// and `--sandbox-network`.
import { isObject, type Json } from "../../json.ts";
import { orList } from "../choices.ts";
import { DEFAULT_SANDBOX_MODE, isSandboxMode, SANDBOX_MODES, type SandboxMode, type SandboxSettings } from "./policy.ts";

export type SandboxFlags = { sandbox?: SandboxMode | undefined; addDirs?: string[] | undefined; sandboxNetwork?: boolean | undefined };

export function sandboxSettings(raw: Json | undefined, configFile: string, flags: SandboxFlags): { settings: SandboxSettings; warnings: string[] } {
  const warnings: string[] = [];
  const warn = (what: string) => warnings.push(`${configFile}: "sandbox" ${what}; it is ignored.`);
  if (raw !== undefined && !isObject(raw)) warn("must be an object");
  const c = isObject(raw) ? raw : {};
  let mode: SandboxMode = DEFAULT_SANDBOX_MODE;
  if (typeof c.mode === "string" && isSandboxMode(c.mode)) mode = c.mode;
  else if (c.mode !== undefined) warn(`"mode" must be ${orList(SANDBOX_MODES)}`);
  let network = false;
  if (typeof c.network === "boolean") network = c.network;
  else if (c.network !== undefined) warn(`"network" must be true or false`);
  const list = (key: "writable" | "hidden"): string[] => {
    const v = c[key];
    if (v === undefined) return [];
    if (Array.isArray(v) && v.every((s) => typeof s === "string" && s !== "")) return v as string[];
    warn(`"${key}" must be a list of paths`);
    return [];
  };
  return {
    settings: {
      mode: flags.sandbox ?? mode,
      network: flags.sandboxNetwork === true || network,
      writable: [...list("writable"), ...(flags.addDirs ?? [])],
      hidden: list("hidden"),
    },
    warnings,
  };
}
