// Where releases are published and how the latest is found; install.sh and install.ps1 follow the
// same layout. A release base is a URL under which `VERSION` (the version number), `SHA256SUMS`
// and every release file sit side by side. The default base is GitHub's
// `releases/latest/download`, which redirects each name to that file of the newest release;
// `ZOT_INSTALL_BASE` points at a mirror (or a test server) with the same layout.
export const RELEASES_URL = "https://github.com/zot-dev/zot/releases";
export const DEFAULT_RELEASE_BASE = `${RELEASES_URL}/latest/download`;
/** Seconds a download may go without receiving a byte before it is given up. */
export const DEFAULT_STALL_TIMEOUT_S = 30;

/** VERSION, SHA256SUMS and the signature are a few lines; a server that sends more is not a release. */
export const MAX_LISTING_BYTES = 1024 * 1024;
/** A zot binary is about 100 MiB; the cap leaves room to grow without letting a server fill the memory. */
export const MAX_BINARY_BYTES = 512 * 1024 * 1024;

export type ReleaseSource = { base: string; stallTimeoutMs: number };

export function releaseSource(env: Record<string, string | undefined>): ReleaseSource | { error: string } {
  const raw = env.ZOT_INSTALL_BASE;
  let base = DEFAULT_RELEASE_BASE;
  if (raw !== undefined && raw !== "") {
    if (!raw.startsWith("http://") && !raw.startsWith("https://")) return { error: `ZOT_INSTALL_BASE must be an http:// or https:// URL (got "${raw}").` };
    base = raw.endsWith("/") ? raw.slice(0, -1) : raw;
  }
  const t = env.ZOT_INSTALL_TIMEOUT;
  if (t !== undefined && t !== "" && !/^[0-9]+$/.test(t)) return { error: `ZOT_INSTALL_TIMEOUT must be a whole number of seconds (got "${t}").` };
  const seconds = t ? Number(t) : DEFAULT_STALL_TIMEOUT_S;
  return { base, stallTimeoutMs: Math.max(1, seconds) * 1000 };
}

/** `1.2.10` > `1.2.9`; a pre-release (`1.3.0-rc.1`) sorts before its release. Null when either is no version. */
export function compareVersions(a: string, b: string): number | null {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa || !pb) return null;
  const diff = pa.core.map((n, i) => n - (pb.core[i] ?? n)).find((d) => d !== 0);
  if (diff !== undefined) return diff;
  if (pa.pre === pb.pre) return 0;
  if (pa.pre === "") return 1;
  if (pb.pre === "") return -1;
  return pa.pre < pb.pre ? -1 : 1;
}

function parseVersion(v: string): { core: [number, number, number]; pre: string } | null {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/.exec(v);
  return m ? { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ?? "" } : null;
}

/** A file's SHA-256 as SHA256SUMS spells it: lowercase hex. */
export function sha256Hex(data: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}

/** The hex SHA-256 listed for `file` in a SHA256SUMS text (`<hex>  <name>` or `<hex> *<name>`). */
export function listedSum(sums: string, file: string): string | null {
  for (const line of sums.split("\n")) {
    const m = /^([0-9a-f]{64}) [ *](.+?)\r?$/.exec(line);
    if (m?.[1] !== undefined && m[2] === file) return m[1];
  }
  return null;
}
