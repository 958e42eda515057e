// What an extension could do, in plain words, for the people deciding whether to let it run (the
// workspace-trust question, /trust, `zot ext trust`): its kernel scope and its protocol powers if
// it declares them, everything the user can do if it does not, and for each kind of extension
// (started by zot, reached over a WebSocket, a theme) what that kind means.
import { grants } from "./install/lockfile.ts";
import { permissionsJson } from "./sandbox/scope.ts";
import { POWERS, POWER_WORDS } from "./powers.ts";
import type { Manifest } from "./types.ts";

const ALL_POWERS = POWERS.map((p) => POWER_WORDS[p]).join("; ");

/** One sentence per line, for a listing; never empty. */
export function capabilityLines(m: Manifest): string[] {
  if (m.transport) {
    const lines = [`a WebSocket extension running outside zot, which cannot sandbox it; through the protocol it ${ALL_POWERS}`];
    if (m.transport.tokenEnv) lines.push(`zot sends it the value of $${m.transport.tokenEnv} from your environment`);
    return lines;
  }
  if (m.exec === null) return ["nothing: a theme runs no program"];
  if (!m.permissions) return [`none declared; it would run as you: your files, your network, your API keys; and it ${ALL_POWERS}`];
  const granted = grants(permissionsJson(m.permissions));
  return granted.length > 0 ? granted : ["nothing beyond its own directory, and no protocol power"];
}
