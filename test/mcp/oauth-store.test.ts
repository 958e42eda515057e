// $ZOT_HOME/mcp-auth.json shared by several zot processes: each change is a locked
// read-modify-write, so processes saving at the same moment keep every entry.
import { authStorePath } from "../../src/platform/home.ts";
import { expect, test } from "bun:test";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { readAuthStore } from "../../src/mcp/oauth/store.ts";
import { tempDir } from "../helpers/temp.ts";

const STORE = resolve(import.meta.dir, "../../src/mcp/oauth/store.ts");
let home = "";

/** A separate process that saves `count` entries, one per server URL, as a login or a refresh does. */
function saver(home: string, who: number, count: number) {
  const code = `
    const { saveAuth } = await import(${JSON.stringify(STORE)});
    for (let i = 0; i < ${count}; i++) {
      const r = saveAuth(${JSON.stringify(home)}, { server: "https://mcp.example/${who}/" + i, issuer: "https://auth.example", client_id: "zot", auth_method: "none", token_endpoint: "https://auth.example/token", resource: "https://mcp.example/", access_token: "token-${who}-" + i, obtained_at: Date.now() });
      if (!r.ok) { console.error(r.error); process.exit(1); }
    }`;
  return Bun.spawn([process.execPath, "-e", code], { stdout: "inherit", stderr: "inherit" });
}

test("processes saving tokens at the same moment keep every entry, and the file stays private", async () => {
  home = tempDir("zot-oauth-store-");
  const procs = [0, 1, 2, 3, 4, 5].map((who) => saver(home, who, 25));
  expect(await Promise.all(procs.map((p) => p.exited))).toEqual([0, 0, 0, 0, 0, 0]);
  const saved = readAuthStore(home)
    .map((e) => e.access_token)
    .sort();
  const expected = [0, 1, 2, 3, 4, 5].flatMap((who) => Array.from({ length: 25 }, (_, i) => `token-${who}-${i}`)).sort();
  expect(saved).toEqual(expected);
  expect(statSync(authStorePath(home)).mode & 0o777).toBe(0o600);
});
