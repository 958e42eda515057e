// An extension that dies says why on stderr; the host quotes that line in its error, and
// `zot ext test` reports the death once.
import { extensionLogPath } from "../../src/platform/home.ts";
import { describe, expect, test } from "bun:test";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { runHarness } from "../../src/ext/harness.ts";
import { ExtensionLog } from "../../src/ext/connection/log.ts";
import { FIXTURES, start } from "./fixture-host.ts";
import { tempDir } from "../helpers/temp.ts";

describe("the extension's last words in host errors", () => {
  test("a shell extension that exits before hello is quoted by its error line, without terminal escapes", async () => {
    const h = await start(["dies-sh"]);
    try {
      const s = h.host.states()[0]!;
      expect(s.status).toBe("failed");
      expect(s.error).toBe(`extension "dies-sh" failed to load: it exited before hello with exit code 1: "Error: Cannot find module './sdk'" (log: ${s.log})`);
    } finally {
      await h.close();
    }
  });

  test("a Python extension that raises on import is quoted by the traceback's last line", async () => {
    const h = await start(["dies-py"]);
    try {
      const s = h.host.states()[0]!;
      expect(s.status).toBe("failed");
      expect(s.error).toContain(`exited before hello with exit code 1: "ModuleNotFoundError: No module named 'zot_sdk_that_is_not_installed'" (log: `);
    } finally {
      await h.close();
    }
  });

  test("a crash after loading quotes the last line in the extension_exited message", async () => {
    const h = await start(["dies-later"]);
    try {
      const exited = await h.intent((i) => i.kind === "extension_exited");
      expect((exited as { message: string }).message).toBe(
        `extension "dies-later" exited with exit code 2: "panic: lost the connection to the weather service" (log: ${extensionLogPath(h.home, "dies-later")})`,
      );
    } finally {
      await h.close();
    }
  });

  test("an extension that wrote nothing to stderr gets the plain message", async () => {
    const h = await start(["killed"]);
    try {
      expect(h.host.states()[0]!.error).toMatch(/exited before hello with signal SIGKILL \(log: /);
    } finally {
      await h.close();
    }
  });
});

describe("ExtensionLog.lastWords", () => {
  function withLog(fn: (log: ExtensionLog, write: (text: string) => void) => void): void {
    const home = tempDir("zot-words-");
    const opened = ExtensionLog.open(home, "x");
    if (!opened.ok) throw new Error(opened.error);
    try {
      fn(opened.log, (text) => appendFileSync(opened.log.path, text));
    } finally {
      opened.log.close();
    }
  }

  test("only this run's lines count: an earlier run's stderr is not quoted", () => {
    const home = tempDir("zot-words-");
    const earlier = ExtensionLog.open(home, "x");
    if (!earlier.ok) throw new Error(earlier.error);
    appendFileSync(earlier.log.path, "Error: from the last run\n");
    earlier.log.close();
    const opened = ExtensionLog.open(home, "x");
    if (!opened.ok) throw new Error(opened.error);
    opened.log.line("starting x");
    expect(opened.log.lastWords()).toBeNull();
    appendFileSync(opened.log.path, "now\n");
    expect(opened.log.lastWords()).toBe("now");
    opened.log.close();
  });

  test("Node's stack frames, error properties and version line after the error are skipped", () => {
    withLog((log, write) => {
      log.line("starting x");
      write(
        [
          "node:internal/modules/cjs/loader:1210",
          "  throw err;",
          "  ^",
          "",
          "Error: Cannot find module './sdk'",
          "Require stack:",
          "- /ext/a.js",
          "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15) {",
          "  code: 'MODULE_NOT_FOUND',",
          "  requireStack: [ '/ext/a.js' ]",
          "}",
          "",
          "Node.js v20.20.2",
          "",
        ].join("\n"),
      );
      log.line("process exited with exit code 1");
      expect(log.lastWords()).toBe("Error: Cannot find module './sdk'");
    });
  });

  test("without an error-like line the last line is quoted, cut at 200 characters", () => {
    withLog((log, write) => {
      write(`first\n${"w".repeat(300)}\n\n`);
      expect(log.lastWords()).toBe(`${"w".repeat(200)}…`);
    });
  });

  test("control characters are removed and the host's own lines are never quoted", () => {
    withLog((log, write) => {
      log.line("starting x");
      expect(log.lastWords()).toBeNull();
      write("\x1b[1mbad\x1b[0m\tthing\x07\r\n");
      log.line("process exited with exit code 1");
      expect(log.lastWords()).toBe("bad thing");
    });
  });

  test("a huge log is read only at its end", () => {
    withLog((log, write) => {
      write("fatal: early\n" + "noise line\n".repeat(200_000) + "the end\n");
      expect(log.lastWords()).toBe("the end");
    });
  });
});

describe("zot ext test on an extension that dies at start", () => {
  test("reports the exit once, with its last words, and skips the shutdown step", async () => {
    const home = tempDir("zot-words-");
    const r = await runHarness({ dir: join(FIXTURES, "dies-sh"), steps: [], home, cwd: home, zotVersion: "test" });
    expect(r.ok).toBe(false);
    const failed = r.steps.filter((s) => s.status === "fail");
    expect(failed.map((s) => s.name)).toEqual(["hello is the first line"]);
    expect(failed[0]!.detail).toBe(`exited before hello: it exited with exit code 1: "Error: Cannot find module './sdk'"; see ${r.log}`);
    const shutdown = r.steps.find((s) => s.name === "exits on shutdown");
    expect(shutdown?.status).toBe("skip");
  });
});
