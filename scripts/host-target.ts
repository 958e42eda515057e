// The release target of the machine this runs on, for building and smoke-testing here.
import { findTarget, type Target } from "../src/platform/targets.ts";

export function hostTarget(): Target | undefined {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const report = process.platform === "linux" ? (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined) : undefined;
  const musl = process.platform === "linux" && !report?.header?.glibcVersionRuntime;
  return findTarget(`${os}-${process.arch}${musl ? "-musl" : ""}`);
}
