// The Ed25519 public keys zot release signatures are checked against (base64, raw 32 bytes), pinned
// in the binary so a mirror or a compromised release page cannot vouch for its own files. A
// release is good when a key here signed its SHA256SUMS. Rotation (docs/releases.md, "Signing"):
// add the new key here, sign releases with both keys until binaries without it are rare, then
// drop the old one. install.sh carries the same list (its generated block; a test keeps them equal).
export const RELEASE_KEYS: readonly string[] = [
  // 75bd19c2b08e6e97, made 2026-12-01 by scripts/release-key.ts
  "/NcAwWEj1u7q6lW6UC37LuofIlpbAMYGtJJvtBlhJkI=",
];
