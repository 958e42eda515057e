// Release signatures as zot checks them (WebCrypto Ed25519) and as the release script and
// install.sh make and read them; every key here is a throwaway one.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RELEASE_KEYS } from "../../src/update/release-keys.ts";
import { keyId, pinnedKeys, verifySums } from "../../src/update/signature.ts";
import { signatureFile, signers, withInstallerKeys } from "../../scripts/release/sign.ts";
import { ROOT, throwawayKey } from "../release/fixture.ts";

const sums = new TextEncoder().encode(`${"a".repeat(64)}  zot-1.0.0-linux-x64\n`);

async function signer(pem: string) {
  const s = await signers({ ZOT_RELEASE_SIGNING_KEY: pem });
  if (typeof s === "string") throw new Error(s);
  return s;
}

test("a SHA256SUMS signed by a pinned key is accepted, and names the key that signed it", async () => {
  const [s] = await signer(await throwawayKey());
  const file = await signatureFile(sums, [s!]);
  expect(await verifySums(sums, file, [s!.publicKey])).toEqual({ ok: true, keyId: s!.id });
  expect(s!.id).toBe(keyId(Buffer.from(s!.publicKey, "base64")));
});

test("one changed byte, another key, or no signature at all is refused with the reason", async () => {
  const [s] = await signer(await throwawayKey());
  const [other] = await signer(await throwawayKey());
  const file = await signatureFile(sums, [s!]);
  const changed = new Uint8Array(sums);
  changed[0] = 0x62;
  expect(await verifySums(changed, file, [s!.publicKey])).toEqual({ ok: false, error: `its signature by ${s!.id} does not match SHA256SUMS` });
  expect(await verifySums(sums, file, [other!.publicKey])).toEqual({
    ok: false,
    error: `it is signed by no key this zot trusts (signed by ${s!.id}; trusted: ${other!.id})`,
  });
  expect(await verifySums(sums, "", [s!.publicKey])).toEqual({ ok: false, error: "it holds no signature" });
});

test("during a rotation a release signed by the old and the new key is accepted by binaries pinning either", async () => {
  const both = await signer(`${await throwawayKey()}\n${await throwawayKey()}`);
  expect(both).toHaveLength(2);
  const file = await signatureFile(sums, both);
  for (const s of both) expect(await verifySums(sums, file, [s.publicKey])).toEqual({ ok: true, keyId: s.id });
});

test("the binary pins the project's release keys, and install.sh carries the same ones", () => {
  expect(pinnedKeys()).toEqual([...RELEASE_KEYS]);
  expect(RELEASE_KEYS.length).toBeGreaterThan(0);
  const script = readFileSync(join(ROOT, "install.sh"), "utf8");
  expect(withInstallerKeys(script, RELEASE_KEYS)).toBe(script);
});

test("the release script refuses to run without a signing key, or with one no binary pins", async () => {
  const run = async (env: Record<string, string>) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("ZOT_RELEASE_"))) as Record<string, string>;
    const p = Bun.spawn([process.execPath, join(ROOT, "scripts", "release.ts"), "--out", join(ROOT, "dist", "never-written"), "--no-smoke"], {
      cwd: ROOT,
      env: { ...clean, ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
    return { code, stderr };
  };
  expect(await run({})).toEqual({
    code: 2,
    stderr:
      "release: no signing key: set ZOT_RELEASE_SIGNING_KEY_FILE to the release key's PEM file (or ZOT_RELEASE_SIGNING_KEY to its text); see docs/releases.md.\n",
  });
  const stranger = await run({ ZOT_RELEASE_SIGNING_KEY: await throwawayKey() });
  expect(stranger.code).toBe(2);
  expect(stranger.stderr).toMatch(
    /^release: the signing key [0-9a-f]{16} is not pinned in src\/update\/release-keys\.ts, so no zot would accept this release; /,
  );
});
