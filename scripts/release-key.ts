// `bun scripts/release-key.ts FILE`: a new Ed25519 release signing key. The private key (PKCS#8
// PEM, mode 0600) goes to FILE, which must not exist; the public key is printed, for
// src/update/release-keys.ts. Keep the private key off this machine once it is stored where the
// release job reads it (docs/releases.md, "Signing").
// `bun scripts/release-key.ts --sync-installer`: rewrites install.sh's key block from release-keys.ts.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { keyId } from "../src/update/signature.ts";
import { RELEASE_KEYS } from "../src/update/release-keys.ts";
import { withInstallerKeys } from "./release/sign.ts";
import { ROOT } from "./build-flags.ts";

const file = process.argv[2];
if (file === "--sync-installer") {
  const path = join(ROOT, "install.sh");
  writeFileSync(path, withInstallerKeys(readFileSync(path, "utf8"), RELEASE_KEYS));
  process.exit(0);
}
if (!file || existsSync(file)) {
  process.stderr.write("release-key: give a file that does not exist yet for the private key.\n");
  process.exit(2);
}
const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
const pkcs8 = Buffer.from(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
writeFileSync(file, `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString("base64")}\n-----END PRIVATE KEY-----\n`, { mode: 0o600, flag: "wx" });
const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
process.stdout.write(`${Buffer.from(raw).toString("base64")}  (key id ${keyId(raw)})\n`);
