import { expect, test } from "bun:test";
import { compareVersions, DEFAULT_RELEASE_BASE, listedSum, releaseSource } from "../../src/update/release-source.ts";

test("the release base defaults to the latest GitHub release and ZOT_INSTALL_BASE overrides it", () => {
  expect(releaseSource({})).toEqual({ base: DEFAULT_RELEASE_BASE, stallTimeoutMs: 30_000 });
  expect(DEFAULT_RELEASE_BASE).toBe("https://github.com/zot-dev/zot/releases/latest/download");
  expect(releaseSource({ ZOT_INSTALL_BASE: "https://mirror.example/zot/", ZOT_INSTALL_TIMEOUT: "5" })).toEqual({
    base: "https://mirror.example/zot",
    stallTimeoutMs: 5_000,
  });
});

test("a base that is no http(s) URL and a timeout that is no whole number are refused", () => {
  expect(releaseSource({ ZOT_INSTALL_BASE: "/srv/zot" })).toEqual({ error: `ZOT_INSTALL_BASE must be an http:// or https:// URL (got "/srv/zot").` });
  expect(releaseSource({ ZOT_INSTALL_TIMEOUT: "2.5s" })).toEqual({ error: `ZOT_INSTALL_TIMEOUT must be a whole number of seconds (got "2.5s").` });
});

test("versions compare by number, and a pre-release comes before its release", () => {
  expect(compareVersions("0.10.0", "0.9.9")).toBeGreaterThan(0);
  expect(compareVersions("1.2.3", "1.2.3")).toBe(0);
  expect(compareVersions("1.3.0-rc.1", "1.3.0")).toBeLessThan(0);
  expect(compareVersions("1.3.0", "1.3.0-rc.1")).toBeGreaterThan(0);
  expect(compareVersions("1.3.0-rc.1", "1.3.0-rc.2")).toBeLessThan(0);
  expect(compareVersions("<html>", "1.0.0")).toBeNull();
});

test("a SHA256SUMS line is found by exact file name, in text or binary mode", () => {
  const a = "a".repeat(64);
  const b = "b".repeat(64);
  const sums = `${a}  zot-1.0.0-linux-x64\n${b} *zot-1.0.0-linux-x64.tar.gz\r\n`;
  expect(listedSum(sums, "zot-1.0.0-linux-x64")).toBe(a);
  expect(listedSum(sums, "zot-1.0.0-linux-x64.tar.gz")).toBe(b);
  expect(listedSum(sums, "zot-1.0.0-linux")).toBeNull();
});
