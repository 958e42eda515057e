import { beforeEach, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tarGz, zip, type ArchiveEntry } from "../../scripts/release/archive.ts";
import { tempDir } from "../helpers/temp.ts";

let dir = "";
beforeEach(() => {
  dir = tempDir("zot-archive-");
});

// A binary-looking payload over one tar block and with every byte value, plus a small text file.
const payload = new Uint8Array(70_000).map((_, i) => (i * 7919) % 256);
const entries: ArchiveEntry[] = [
  { name: "zot-1.0.0-linux-x64/zot", data: payload, executable: true },
  { name: "zot-1.0.0-linux-x64/LICENSE", data: new TextEncoder().encode("MIT\n"), executable: false },
];

test("the tar.gz unpacks with the system tar, keeping contents and the executable bit", () => {
  writeFileSync(join(dir, "a.tar.gz"), tarGz(entries));
  const untar = Bun.spawnSync(["tar", "-xzf", "a.tar.gz"], { cwd: dir, stderr: "pipe" });
  expect(untar.stderr.toString()).toBe("");
  expect(untar.exitCode).toBe(0);
  expect(new Uint8Array(readFileSync(join(dir, "zot-1.0.0-linux-x64", "zot")))).toEqual(payload);
  expect(statSync(join(dir, "zot-1.0.0-linux-x64", "zot")).mode & 0o777).toBe(0o755);
  expect(readFileSync(join(dir, "zot-1.0.0-linux-x64", "LICENSE"), "utf8")).toBe("MIT\n");
});

test("the same entries always give the same archive bytes", () => {
  expect(tarGz(entries)).toEqual(tarGz(entries));
  expect(zip(entries)).toEqual(zip(entries));
});

test("the zip passes Python's zipfile integrity test and holds the same bytes", () => {
  writeFileSync(join(dir, "a.zip"), zip(entries));
  const script = [
    "import sys, zipfile",
    "z = zipfile.ZipFile(sys.argv[1])",
    "assert z.testzip() is None",
    "print(z.namelist())",
    "sys.stdout.buffer.write(z.read('zot-1.0.0-linux-x64/zot'))",
  ].join("\n");
  const py = Bun.spawnSync(["python3", "-c", script, join(dir, "a.zip")], { stdout: "pipe", stderr: "pipe" });
  expect(py.stderr.toString()).toBe("");
  const out = py.stdout;
  const firstLine = out.indexOf(10);
  expect(out.subarray(0, firstLine).toString()).toBe("['zot-1.0.0-linux-x64/zot', 'zot-1.0.0-linux-x64/LICENSE']");
  expect(new Uint8Array(out.subarray(firstLine + 1))).toEqual(payload);
});

test("a tar entry name over 100 bytes is refused rather than cut", () => {
  expect(() => tarGz([{ name: "x".repeat(101), data: new Uint8Array(1), executable: false }])).toThrow("longer than 100 bytes");
});
