// OAuth's HTTP goes through the door: its requests follow no redirect at all (the code, the client
// secret and the tokens stay with the server they were meant for) and its documents are capped.
import { expect, test } from "bun:test";
import { authServerMetadata } from "../../src/mcp/oauth/discovery.ts";
import { refreshTokens } from "../../src/mcp/oauth/tokens.ts";
import { startEndless, startTwoOrigins } from "../helpers/two-origins.ts";

test("a token request redirected to another origin fails, and the client secret and refresh token never reach it", async () => {
  for (const status of [302, 307, 308]) {
    const t = startTwoOrigins(status);
    try {
      const got = await refreshTokens(
        `${t.first}/token`,
        { id: "zot", secret: "client-s3cret", method: "client_secret_basic" },
        { refreshToken: "refresh-s3cret", resource: `${t.first}/mcp` },
      );
      expect(got.ok).toBe(false);
      if (!got.ok) expect(got.error).toContain(`${t.first} redirected the request (HTTP ${status}) to ${t.second}/token`);
      expect(t.seen).toEqual([]);
    } finally {
      t.stop();
    }
  }
});

test("authorization server metadata that never ends is stopped at 1 MiB, with a sentence", async () => {
  const endless = startEndless("application/json", " ".repeat(64 * 1024), '{"issuer":');
  try {
    const got = await authServerMetadata(endless.url);
    expect(got.ok).toBe(false);
    if (!got.ok) expect(got.error).toContain(`the answer from ${endless.url} passed 1 MiB and was stopped`);
  } finally {
    endless.stop();
  }
});
