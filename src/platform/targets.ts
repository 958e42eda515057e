// The platforms zot is released for, and how each release file is named. One definition shared by
// the build (which embeds the target), the release script, and `zot update` (which downloads the
// file for the target it was built for); install.sh spells the same names in shell.
export type OsName = "linux" | "darwin" | "windows";
export type ArchName = "x64" | "arm64";

export type Target = {
  /** `linux-x64-musl`: the name in release file names and in `zot --version --json`. */
  name: string;
  os: OsName;
  arch: ArchName;
  musl: boolean;
};

export const TARGETS: readonly Target[] = [
  { name: "linux-x64", os: "linux", arch: "x64", musl: false },
  { name: "linux-arm64", os: "linux", arch: "arm64", musl: false },
  { name: "linux-x64-musl", os: "linux", arch: "x64", musl: true },
  { name: "linux-arm64-musl", os: "linux", arch: "arm64", musl: true },
  { name: "darwin-x64", os: "darwin", arch: "x64", musl: false },
  { name: "darwin-arm64", os: "darwin", arch: "arm64", musl: false },
  { name: "windows-x64", os: "windows", arch: "x64", musl: false },
];

export function findTarget(name: string): Target | undefined {
  return TARGETS.find((t) => t.name === name);
}

/** `zot-0.2.0-linux-x64`, the bare binary (`.exe` on Windows). */
export function binaryFileName(version: string, target: Target): string {
  return `zot-${version}-${target.name}${target.os === "windows" ? ".exe" : ""}`;
}

/** `zot-0.2.0-linux-x64.tar.gz`, or `.zip` on Windows: the binary with LICENSE and README. */
export function archiveFileName(version: string, target: Target): string {
  return `zot-${version}-${target.name}${target.os === "windows" ? ".zip" : ".tar.gz"}`;
}

/** The name of the program inside an archive and once installed. */
export function installedName(target: Target): string {
  return target.os === "windows" ? "zot.exe" : "zot";
}

/** The checksum list published with every release: `<sha256 hex>  <file name>` per line. */
export const SUMS_FILE = "SHA256SUMS";
/** A release's version number and a newline, published so installers and `zot update` can find the latest. */
export const VERSION_FILE = "VERSION";
