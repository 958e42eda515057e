// The version printed by `zot --version` and sent in hello_ack. Importing package.json lets the
// bundler inline the one field at build time, so the compiled binary never reads the file. The
// commit, build date and target are defined by scripts/build-flags.ts at build time (and the version
// too when a release is labelled otherwise, e.g. a candidate); a run from source without a build
// (`bun src/main.ts`) has none of them.
import pkg from "../../package.json" with { type: "json" };

declare const ZOT_BUILD_VERSION: string | undefined;
declare const ZOT_BUILD_COMMIT: string | undefined;
declare const ZOT_BUILD_DATE: string | undefined;
declare const ZOT_BUILD_TARGET: string | undefined;

export const ZOT_VERSION: string = typeof ZOT_BUILD_VERSION === "string" ? ZOT_BUILD_VERSION : pkg.version;

export type BuildInfo = { version: string; commit: string; date: string; target: string };

export function buildInfo(): BuildInfo {
  const os = process.platform === "win32" ? "windows" : process.platform;
  return {
    version: ZOT_VERSION,
    commit: typeof ZOT_BUILD_COMMIT === "string" ? ZOT_BUILD_COMMIT : "unknown",
    date: typeof ZOT_BUILD_DATE === "string" ? ZOT_BUILD_DATE : "unknown",
    target: typeof ZOT_BUILD_TARGET === "string" ? ZOT_BUILD_TARGET : `${os}-${process.arch}`,
  };
}

/** `zot 0.2.0 (1a2b3c4 2026-12-01)`, or its JSON form with the target. */
export function versionText(info: BuildInfo, json: boolean): string {
  if (json) return `${JSON.stringify(info)}\n`;
  return `zot ${info.version} (${info.commit} ${info.date})\n`;
}

/** True in a binary built by scripts/build.ts or the release script, false when run from source. */
export function isReleaseBuild(): boolean {
  return typeof ZOT_BUILD_TARGET === "string";
}
