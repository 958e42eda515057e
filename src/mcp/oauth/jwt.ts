// The client assertion of `private_key_jwt` (RFC 7523 §2.2, as MCP's client-credentials extension
// uses it): a short-lived JWT naming the client as issuer and subject and the authorization server
// as audience, signed with the client's PKCS#8 key through WebCrypto.
import type { Result } from "../../result.ts";
import type { SigningAlgorithm } from "../config.ts";

export const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/** An assertion is good for this long: one token request. */
const LIFETIME_S = 60;

type Algorithm = { key: Parameters<typeof crypto.subtle.importKey>[2]; sign: Parameters<typeof crypto.subtle.sign>[0] };

const ALGORITHMS: Record<SigningAlgorithm, Algorithm> = {
  RS256: { key: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, sign: { name: "RSASSA-PKCS1-v1_5" } },
  PS256: { key: { name: "RSA-PSS", hash: "SHA-256" }, sign: { name: "RSA-PSS", saltLength: 32 } },
  ES256: { key: { name: "ECDSA", namedCurve: "P-256" }, sign: { name: "ECDSA", hash: "SHA-256" } },
  ES384: { key: { name: "ECDSA", namedCurve: "P-384" }, sign: { name: "ECDSA", hash: "SHA-384" } },
};
/** Tried in this order when the configuration names no algorithm: the key's type decides. */
const GUESSES: SigningAlgorithm[] = ["ES256", "ES384", "RS256"];

export type SigningKey = { alg: SigningAlgorithm; key: CryptoKey };

/** The key of a PKCS#8 PEM, for `alg` or the first algorithm its type fits. */
export async function signingKey(pem: string, alg: SigningAlgorithm | undefined): Promise<Result<{ value: SigningKey }>> {
  if (/-----BEGIN (?:EC|RSA) PRIVATE KEY-----/.test(pem))
    return {
      ok: false,
      error: 'the private key is in the old EC/RSA PEM form; WebCrypto reads PKCS#8 ("BEGIN PRIVATE KEY"): convert it with openssl pkcs8 -topk8 -nocrypt',
    };
  const body = /-----BEGIN PRIVATE KEY-----([\s\S]+?)-----END PRIVATE KEY-----/.exec(pem)?.[1];
  if (body === undefined) return { ok: false, error: 'the private key is not a PEM "BEGIN PRIVATE KEY" block' };
  const der = Buffer.from(body.replace(/\s+/g, ""), "base64");
  for (const a of alg ? [alg] : GUESSES) {
    try {
      return { ok: true, value: { alg: a, key: await crypto.subtle.importKey("pkcs8", der, ALGORITHMS[a].key, false, ["sign"]) } };
    } catch {
      // Not this algorithm's key type (or not a key at all): the next guess, or the error below.
    }
  }
  return { ok: false, error: alg ? `the private key is not a ${alg} key` : `the private key is none of ${GUESSES.join(", ")} (set "signing_algorithm")` };
}

/** A fresh assertion for one token request to `audience` (the issuer). */
export async function clientAssertion(k: SigningKey, clientId: string, audience: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: k.alg, typ: "JWT" };
  const claims = { iss: clientId, sub: clientId, aud: audience, iat: now, exp: now + LIFETIME_S, jti: crypto.randomUUID() };
  const input = `${part(header)}.${part(claims)}`;
  // WebCrypto's ECDSA signature is already r‖s, the form JWS wants (RFC 7518 §3.4).
  const signature = await crypto.subtle.sign(ALGORITHMS[k.alg].sign, k.key, new TextEncoder().encode(input));
  return `${input}.${Buffer.from(signature).toString("base64url")}`;
}

function part(v: object): string {
  return Buffer.from(JSON.stringify(v)).toString("base64url");
}
