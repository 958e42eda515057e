// Where a user's secrets live, and the one rule every implicit grant passes: a folder the sandbox
// grants on its own (an interpreter's install tree) may not be, contain or lie inside any of them,
// nor be the home folder or above it. Declared paths are the author's explicit, consented choice
// and are not checked here.
import { dirname, join } from "node:path";
import { isWithin, realPath } from "../../platform/real-path.ts";

/** Secrets under the home folder: keys, credentials, keyrings, tokens of common tools. */
const HOME_SECRETS = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config",
  ".kube",
  ".docker",
  ".password-store",
  ".local/share/keyrings",
  ".local/share/kwalletd",
  ".local/state",
  ".netrc",
  ".git-credentials",
  ".pypirc",
  ".npmrc",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".gem/credentials",
];

export type SecretPlaces = {
  home: string;
  zotHome: string;
  /** The extension's own directory: its siblings (other extensions) are secrets to it. */
  extensionDir: string;
  cwd: string;
};

/** Every protected place, lexical and real (a symlinked `$ZOT_HOME` is protected at both ends). */
export function secretPaths(at: SecretPlaces): string[] {
  const places = [at.zotHome, dirname(at.extensionDir), join(at.cwd, ".zot"), ...HOME_SECRETS.map((p) => join(at.home, p))];
  return [...new Set(places.flatMap((p) => [p, realPath(p)]))];
}

/** Why the sandbox may not grant `dir` on its own (`holds /home/u/.ssh`, `lies in …`), or null when it may. */
export function secretReach(dir: string, at: SecretPlaces): string | null {
  const home = realPath(at.home);
  for (const d of new Set([dir, realPath(dir)])) {
    if (isWithin(home, d) || isWithin(at.home, d)) return `holds your home folder ${at.home}`;
    for (const secret of secretPaths(at)) {
      if (isWithin(secret, d)) return `holds ${secret}`;
      if (isWithin(d, secret)) return `lies in ${secret}`;
    }
  }
  return null;
}
