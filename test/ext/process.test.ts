// Shutdown and process-group handling: nothing an extension started may survive zot.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { alive, start } from "./fixture-host.ts";

describe("shutdown", () => {
  test("a grandchild does not survive shutdown, even when its parent exits cleanly", async () => {
    const h = await start(["grandchild"]);
    try {
      const note = await h.intent((i) => i.kind === "notify" && i.message.startsWith("grandchild "));
      const pid = Number((note as { message: string }).message.split(" ")[1]);
      expect(alive(pid)).toBe(true);
      await h.host.shutdown();
      await waitFor(() => !alive(pid), 5_000);
      expect(alive(pid)).toBe(false);
    } finally {
      await h.close();
    }
  });

  test("an extension that ignores SIGTERM and its input's end is killed", async () => {
    const h = await start(["ignores-term"]);
    try {
      const pid = Number(h.log("ignores-term").match(/^pid (\d+)$/m)![1]);
      expect(alive(pid)).toBe(true);
      await h.host.shutdown();
      expect(alive(pid)).toBe(false);
      expect(h.log("ignores-term")).toContain("sending SIGTERM");
      expect(h.log("ignores-term")).toContain("signal SIGKILL");
    } finally {
      await h.close();
    }
  });

  test("shutdown is idempotent", async () => {
    const h = await start(["legacy"]);
    try {
      const a = h.host.shutdown();
      const b = h.host.shutdown();
      expect(a).toBe(b);
      await a;
      expect(h.log("legacy")).toContain("shutdown acknowledged");
      expect(h.log("legacy")).toContain("exited with exit code 0");
    } finally {
      await h.close();
    }
  });

  test("an extension that stops reading its stdin is treated as hung: killed, with an error naming it", async () => {
    const h = await start(["deaf"]);
    try {
      // 70 × 1 MiB: past the 64 MiB limit, while the pipe itself holds only 64 KiB.
      const text = "x".repeat(1024 * 1024);
      for (let i = 0; i < 70; i++) h.host.emit({ event: "assistant_message", text });
      const exited = await h.intent((i) => i.kind === "extension_exited");
      expect((exited as { message: string }).message).toContain(`extension "deaf" stopped reading its input`);
      expect(h.host.states()[0]!.status).toBe("exited");
      expect(h.log("deaf")).toContain("not reading its stdin");
    } finally {
      await h.close();
    }
  });

  test("an extension that closes its stdout but keeps running counts as gone and is stopped", async () => {
    const h = await start(["closes-output"]);
    try {
      const exited = await h.intent((i) => i.kind === "extension_exited");
      expect((exited as { message: string }).message).toContain("closed its output");
      expect(h.host.commands()).toEqual([]);
    } finally {
      await h.close();
    }
  });

  /** Runs a small zot stand-in that loads the grandchild fixture; returns it and the grandchild's pid. */
  async function standIn(dir: string, after: string) {
    const script = `
      import { Host, shutdownOnSignals } from "${import.meta.dir}/../../src/ext/host.ts";
      const home = process.argv[2];
      const host = new Host({ shutdownGraceMs: 300, killAfterMs: 200 });
      let pid = 0;
      host.onIntent((i) => { if (i.kind === "notify") pid = Number(i.message.split(" ")[1]); });
      shutdownOnSignals(host);
      await host.load({ extPaths: ["${import.meta.dir}/../fixtures/ext/grandchild"], noExt: true, cwd: home, home,
        info: { zotVersion: "0", provider: "", model: "", cwd: home } });
      while (!pid) await Bun.sleep(5);
      console.log(pid);
      ${after}
    `;
    writeFileSync(join(dir, "main.ts"), script);
    const p = Bun.spawn([process.execPath, join(dir, "main.ts"), dir], { stdout: "pipe", stderr: "inherit" });
    const reader = p.stdout.getReader();
    let out = "";
    while (!out.includes("\n")) out += new TextDecoder().decode((await reader.read()).value);
    return { p, pid: Number(out.trim()) };
  }

  test("SIGTERM of zot shuts the extensions down before exiting", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zot-sig-"));
    try {
      const { p, pid } = await standIn(dir, "setInterval(() => {}, 1000);");
      expect(alive(pid)).toBe(true);
      p.kill("SIGTERM");
      expect(await p.exited).toBe(143);
      await waitFor(() => !alive(pid), 5_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("if zot exits without shutting down, its extensions' process groups are killed on the way out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zot-exit-"));
    try {
      const { p, pid } = await standIn(dir, "setTimeout(() => process.exit(0), 50);");
      expect(await p.exited).toBe(0);
      await waitFor(() => !alive(pid), 5_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
