// Signing a release at release time. The private keys come from the environment, never from the
// repository: ZOT_RELEASE_SIGNING_KEY holds PKCS#8 PEM text, ZOT_RELEASE_SIGNING_KEY_FILE names a
// file of it; either may hold several keys (every one signs, which is how a rotation overlaps).
import { readFileSync } from "node:fs";
import { keyId, publicKeyPem } from "../../src/update/signature.ts";

export type Signer = { publicKey: string; id: string; key: CryptoKey };

/** The signing keys the environment gives, or a sentence saying why there are none. */
export async function signers(env: Record<string, string | undefined>): Promise<Signer[] | string> {
  let text = env.ZOT_RELEASE_SIGNING_KEY ?? "";
  const file = env.ZOT_RELEASE_SIGNING_KEY_FILE;
  if (file) {
    try {
      text += `\n${readFileSync(file, "utf8")}`;
    } catch (e) {
      return `cannot read ZOT_RELEASE_SIGNING_KEY_FILE ${file} (${(e as Error).message})`;
    }
  }
  const blocks = [...text.matchAll(/-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/g)];
  if (blocks.length === 0)
    return "no signing key: set ZOT_RELEASE_SIGNING_KEY_FILE to the release key's PEM file (or ZOT_RELEASE_SIGNING_KEY to its text); see docs/releases.md";
  const out: Signer[] = [];
  for (const b of blocks) {
    try {
      const key = await crypto.subtle.importKey("pkcs8", Buffer.from(b[1]!.replace(/\s+/g, ""), "base64"), { name: "Ed25519" }, true, ["sign"]);
      const raw = Buffer.from((await crypto.subtle.exportKey("jwk", key)).x ?? "", "base64url");
      out.push({ publicKey: raw.toString("base64"), id: keyId(raw), key });
    } catch (e) {
      return `a signing key is not an Ed25519 PKCS#8 private key (${(e as Error).message})`;
    }
  }
  return out;
}

/** SHA256SUMS.sig: one `<key id> <base64 signature>` line per signer. */
export async function signatureFile(sums: Uint8Array, by: Signer[]): Promise<string> {
  const lines: string[] = [];
  for (const s of by) lines.push(`${s.id} ${Buffer.from(await crypto.subtle.sign("Ed25519", s.key, sums)).toString("base64")}`);
  return `${lines.join("\n")}\n`;
}

const BEGIN = "# BEGIN RELEASE KEYS";
const END = "# END RELEASE KEYS";

/** install.sh with its key block written for `keys`: `<key id> <SPKI base64>` per line, what openssl reads as PEM. */
export function withInstallerKeys(script: string, keys: readonly string[]): string {
  const start = script.indexOf(BEGIN);
  const end = script.indexOf(END);
  if (start < 0 || end < start) throw new Error("install.sh has no release key block");
  const lines = keys.map((k) => `${keyId(Buffer.from(k, "base64"))} ${publicKeyPem(k).split("\n")[1]}`);
  const block = `${BEGIN} (generated from src/update/release-keys.ts by scripts/release.ts; do not edit)\nrelease_keys='${lines.join("\n")}'\n`;
  return script.slice(0, start) + block + script.slice(end);
}
