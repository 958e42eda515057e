// Release builds for the installer and update tests, made once per test run by the real release
// script for this machine's target only: the current version, and a newer one to update to. They
// are signed with a throwaway key made here, which the builds pin (--pin-own-key).
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { hostTarget } from "../../scripts/host-target.ts";
import type { Target } from "../../src/platform/targets.ts";
import { tempDir } from "../helpers/temp.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const NEXT_VERSION = "9.9.0";

export type Releases = {
  target: Target;
  current: { dir: string; version: string };
  next: { dir: string; version: string };
  /** The throwaway signing key (PKCS#8 PEM) the builds pin. */
  signingKey: string;
};

/** A new Ed25519 private key as PKCS#8 PEM, what ZOT_RELEASE_SIGNING_KEY holds. */
export async function throwawayKey(): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  return `-----BEGIN PRIVATE KEY-----\n${Buffer.from(await crypto.subtle.exportKey("pkcs8", pair.privateKey)).toString("base64")}\n-----END PRIVATE KEY-----\n`;
}

let built: Promise<Releases> | null = null;

async function release(out: string, args: string[], key: string): Promise<void> {
  const target = hostTarget()!;
  const proc = Bun.spawn([process.execPath, join(ROOT, "scripts", "release.ts"), "--target", target.name, "--out", out, "--pin-own-key", ...args], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ZOT_RELEASE_SIGNING_KEY: key },
  });
  const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`scripts/release.ts ${args.join(" ")} failed (exit ${code}):\n${err}`);
}

/** Built on first use and shared by every test file of the run; removed when the run ends. */
export function releases(): Promise<Releases> {
  if (built) return built;
  const root = tempDir("zot-releases-");
  process.on("exit", () => rmSync(root, { recursive: true, force: true }));
  built = (async () => {
    const current = join(root, pkg.version);
    const next = join(root, NEXT_VERSION);
    const signingKey = await throwawayKey();
    await release(current, [], signingKey);
    await release(next, ["--version", NEXT_VERSION, "--no-smoke"], signingKey);
    return { target: hostTarget()!, current: { dir: current, version: pkg.version }, next: { dir: next, version: NEXT_VERSION }, signingKey };
  })();
  return built;
}
