// Release signatures. `SHA256SUMS.sig` holds one line per signing key, `<key id> <base64 Ed25519
// signature of SHA256SUMS>`; since SHA256SUMS lists the hash of every release file, one signature
// covers them all. A release is accepted when any line is a valid signature by a key this binary
// pins (release-keys.ts, plus the keys a build was told to pin). WebCrypto verifies it: no dependency.
import { RELEASE_KEYS } from "./release-keys.ts";

declare const ZOT_BUILD_RELEASE_KEYS: string | undefined;

export const SIGNATURE_FILE = "SHA256SUMS.sig";

/** The DER prefix that makes a raw Ed25519 public key a SubjectPublicKeyInfo (what openssl reads as PEM). */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** The keys this binary trusts, base64 raw 32-byte Ed25519 public keys. */
export function pinnedKeys(): string[] {
  const extra = typeof ZOT_BUILD_RELEASE_KEYS === "string" ? (JSON.parse(ZOT_BUILD_RELEASE_KEYS) as string[]) : [];
  return [...new Set([...RELEASE_KEYS, ...extra])];
}

/** A key's short name in signature files: the first 16 hex digits of the SHA-256 of its raw bytes. */
export function keyId(raw: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(raw).digest("hex").slice(0, 16);
}

/** The key as a PEM public key, for `openssl pkeyutl -verify` in install.sh. */
export function publicKeyPem(base64Raw: string): string {
  return `-----BEGIN PUBLIC KEY-----\n${Buffer.concat([SPKI_PREFIX, Buffer.from(base64Raw, "base64")]).toString("base64")}\n-----END PUBLIC KEY-----\n`;
}

export type Verified = { ok: true; keyId: string } | { ok: false; error: string };

/** Whether `signatures` (the text of SHA256SUMS.sig) holds a valid signature of `sums` by one of `keys`. */
export async function verifySums(sums: Uint8Array, signatures: string, keys: readonly string[]): Promise<Verified> {
  const byId = new Map(keys.map((k) => [keyId(Buffer.from(k, "base64")), k]));
  const lines = signatures
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const known = lines.map((l) => /^([0-9a-f]{16}) ([A-Za-z0-9+/]{86}==)$/.exec(l)).filter((m) => m !== null && byId.has(m[1]!));
  if (known.length === 0) {
    const ids = lines.map((l) => l.split(" ")[0]).join(", ");
    return {
      ok: false,
      error:
        lines.length === 0
          ? "it holds no signature"
          : `it is signed by no key this zot trusts (signed by ${ids.slice(0, 200)}; trusted: ${[...byId.keys()].join(", ")})`,
    };
  }
  for (const m of known) {
    const key = await crypto.subtle.importKey("raw", Buffer.from(byId.get(m![1]!)!, "base64"), { name: "Ed25519" }, false, ["verify"]);
    if (await crypto.subtle.verify("Ed25519", key, Buffer.from(m![2]!, "base64"), sums)) return { ok: true, keyId: m![1]! };
  }
  return { ok: false, error: `its signature by ${known.map((m) => m![1]).join(", ")} does not match SHA256SUMS` };
}
