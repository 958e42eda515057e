// The Windows rules that cannot run on this machine, checked as the pure logic they are.
import { expect, test } from "bun:test";
import { quoteCmdArgument, spawnCommand } from "../../src/platform/command-line.ts";
import { executableExtensions, pathCandidates } from "../../src/platform/exec-path.ts";
import { ownsProcessGroup, taskkillArgv } from "../../src/platform/process-tree.ts";
import { shellCandidates } from "../../src/platform/shell.ts";
import { zotHome } from "../../src/platform/home.ts";

test("a bare exec is tried with each PATHEXT extension in each PATH folder, in order", () => {
  const env = { Path: 'C:\\Program Files\\nodejs;"C:\\Tools;x";C:\\Python312', PATHEXT: ".EXE;.CMD" };
  expect(pathCandidates("npx", env, "win32")).toEqual([
    "C:\\Program Files\\nodejs\\npx.EXE",
    "C:\\Program Files\\nodejs\\npx.CMD",
    "C:\\Tools;x\\npx.EXE",
    "C:\\Tools;x\\npx.CMD",
    "C:\\Python312\\npx.EXE",
    "C:\\Python312\\npx.CMD",
  ]);
});

test("a name that already ends in a PATHEXT extension is looked up as written", () => {
  expect(executableExtensions("python.exe", { PATHEXT: ".COM;.EXE" }, "win32")).toEqual([""]);
  expect(executableExtensions("run.BAT", {}, "win32")).toEqual([""]);
  expect(executableExtensions("python3", {}, "win32")).toEqual([".COM", ".EXE", ".BAT", ".CMD"]);
});

test("on POSIX the name is looked up as written in each PATH folder", () => {
  expect(pathCandidates("python3", { PATH: "/usr/local/bin::/usr/bin", PATHEXT: ".EXE" }, "linux")).toEqual(["/usr/local/bin/python3", "/usr/bin/python3"]);
});

test(".exe files are spawned directly; .cmd and .bat shims run under cmd.exe with arguments quoted", () => {
  expect(spawnCommand("C:\\Python312\\python.exe", ["main.py"], "win32")).toEqual({
    argv: ["C:\\Python312\\python.exe", "main.py"],
    windowsVerbatimArguments: false,
  });
  expect(spawnCommand("/usr/bin/npx", ["a b"], "linux")).toEqual({ argv: ["/usr/bin/npx", "a b"], windowsVerbatimArguments: false });
  expect(spawnCommand("C:\\Program Files\\nodejs\\npx.cmd", ["-y", "my ext"], "win32")).toEqual({
    argv: ["cmd.exe", "/d", "/s", "/c", '"C:\\Program^ Files\\nodejs\\npx.cmd ^"-y^" ^"my^ ext^""'],
    windowsVerbatimArguments: true,
  });
  expect(spawnCommand("C:\\x\\run.BAT", [], "win32", "C:\\Windows\\system32\\cmd.exe").argv[0]).toBe("C:\\Windows\\system32\\cmd.exe");
});

test("cmd metacharacters in arguments are escaped, twice for npm's node_modules\\.bin shims", () => {
  expect(quoteCmdArgument("a&b|c", false)).toBe('^"a^&b^|c^"');
  expect(quoteCmdArgument('say "hi"\\', false)).toBe('^"say^ \\^"hi\\^"\\\\^"');
  expect(quoteCmdArgument("100%", true)).toBe('^^^"100^^^%^^^"');
  const shim = spawnCommand("C:\\proj\\node_modules\\.bin\\tsx.cmd", ["x&y"], "win32");
  expect(shim.argv[4]).toBe('"C:\\proj\\node_modules\\.bin\\tsx.cmd ^^^"x^^^&y^^^""');
});

test("process trees end with taskkill /T on Windows (/F to force) and with process groups elsewhere", () => {
  expect(taskkillArgv(4242, "SIGTERM")).toEqual(["taskkill", "/T", "/PID", "4242"]);
  expect(taskkillArgv(4242, "SIGKILL")).toEqual(["taskkill", "/T", "/F", "/PID", "4242"]);
  expect(ownsProcessGroup("win32")).toBe(false);
  expect(ownsProcessGroup("linux")).toBe(true);
  expect(ownsProcessGroup("darwin")).toBe(true);
});

test("the bash tool's shell on Windows is sh.exe from PATH, then from Git for Windows' folders", () => {
  expect(shellCandidates({}, "linux")).toEqual(["/bin/sh"]);
  expect(shellCandidates({ Path: "C:\\Git\\usr\\bin", PATHEXT: ".EXE", ProgramFiles: "C:\\Program Files" }, "win32")).toEqual([
    "C:\\Git\\usr\\bin\\sh.EXE",
    "C:\\Program Files\\Git\\bin\\sh.exe",
    "C:\\Program Files\\Git\\usr\\bin\\sh.exe",
  ]);
});

test("the default home on Windows is %LOCALAPPDATA%\\zot", () => {
  expect(zotHome({ LOCALAPPDATA: "C:\\Users\\pat\\AppData\\Local" }, "win32", "C:\\Users\\pat")).toBe("C:\\Users\\pat\\AppData\\Local\\zot");
  expect(zotHome({}, "win32", "C:\\Users\\pat")).toBe("C:\\Users\\pat\\AppData\\Local\\zot");
});
