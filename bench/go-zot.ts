// Builds the Go zot from its public source, outside this repository, for the side-by-side runs of
// bench/zot-vs-go.ts (ZOT_GO_BIN). The source is a clone or a bare mirror of patriceckhart/zot; the
// tag the comparison uses is v0.1.62 (380eca96). It builds offline with Debian's Go and Debian's
// packages of its dependencies, as shared/reference/zot-go.md describes:
//
//   apt-get install golang-go golang-github-alecthomas-chroma-v2-dev golang-github-google-uuid-dev \
//     golang-github-mattn-go-runewidth-dev golang-github-rivo-uniseg-dev golang-github-dlclark-regexp2-dev \
//     golang-golang-x-image-dev golang-golang-x-sys-dev golang-golang-x-term-dev golang-golang-x-text-dev
//
//   bun bench/go-zot.ts GIT_DIR [OUT_DIR]     (prints the binary's path; OUT_DIR defaults to a temp dir)
//
// The source is exported into OUT_DIR, its go.mod replaced there by one that maps every dependency
// to a copy of Debian's under OUT_DIR/modules, and the one line Go 1.19 cannot compile (`for range N`) rewritten as a counted loop. Nothing is written into
// this repository or into the source.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const COMMIT = "380eca96";
const GOCODE = "/usr/share/gocode/src";
/** The Go zot's modules and theirs, all in Debian's packages under GOCODE. */
const MODULES = [
  "github.com/alecthomas/chroma/v2",
  "github.com/dlclark/regexp2",
  "github.com/google/uuid",
  "github.com/mattn/go-runewidth",
  "github.com/rivo/uniseg",
  "golang.org/x/image",
  "golang.org/x/sys",
  "golang.org/x/term",
  "golang.org/x/text",
] as const;

function fail(message: string): never {
  process.stderr.write(`go-zot: ${message}\n`);
  process.exit(1);
}

function run(argv: string[], cwd: string, env: Record<string, string> = {}): void {
  const r = Bun.spawnSync(argv, { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) fail(`${argv.join(" ")} (in ${cwd}) exited with ${r.exitCode}:\n${r.stderr.toString()}${r.stdout.toString()}`);
}

const [gitDir, outArg] = process.argv.slice(2);
if (!gitDir) fail("usage: bun bench/go-zot.ts GIT_DIR [OUT_DIR] — GIT_DIR is a clone or a bare mirror of patriceckhart/zot.");
if (!Bun.which("go")) fail("no `go` on PATH; install Debian's golang-go and the packages listed at the top of bench/go-zot.ts.");
for (const dep of MODULES)
  if (!existsSync(join(GOCODE, dep))) fail(`${join(GOCODE, dep)} is missing; install the Debian package of ${dep} (listed at the top of bench/go-zot.ts).`);

const out = resolve(outArg ?? mkdtempSync(join(tmpdir(), "go-zot-")));
const src = join(out, "src");
mkdirSync(src, { recursive: true });
run(["sh", "-c", `git --git-dir="$1" archive ${COMMIT} | tar -x -C "$2"`, "sh", existsSync(join(gitDir, ".git")) ? join(gitDir, ".git") : gitDir, src], out);

// Every dependency is its own module, mapped to a copy whose go.mod requires nothing: Debian's
// go.mod files name further modules (tests' dependencies, x/tools) that are not installed, and
// regexp2 ships without one. The main go.mod lists them all, so the build sees every version.
const modules = join(out, "modules");
const replaces = [...MODULES].map((m) => {
  const dir = join(modules, m);
  cpSync(join(GOCODE, m), dir, { recursive: true });
  writeFileSync(join(dir, "go.mod"), `module ${m}\n\ngo 1.19\n`);
  return `replace ${m} => ${dir}`;
});
const requires = [...MODULES].map((m) => `\t${m} ${m.endsWith("/v2") ? "v2.0.0" : "v0.0.0"}`);
writeFileSync(join(src, "go.mod"), `module github.com/patriceckhart/zot\n\ngo 1.19\n\nrequire (\n${requires.join("\n")}\n)\n\n${replaces.join("\n")}\n`);

const render = join(src, "internal/tui/render.go");
const text = readFileSync(render, "utf8");
const patched = text.replace("for range bottomMarginRows {", "for i := 0; i < bottomMarginRows; i++ {");
if (patched === text) fail(`${render}: the line Go 1.19 cannot compile was not found; is this commit ${COMMIT}?`);
writeFileSync(render, patched);

run(["go", "build", "-trimpath", "-buildvcs=false", "-o", join(out, "zot"), "./cmd/zot"], src, {
  CGO_ENABLED: "0",
  GOFLAGS: "-mod=mod",
  GOPROXY: "off",
  GOSUMDB: "off",
  GOCACHE: join(out, "cache"),
  GOPATH: join(out, "gopath"),
});
console.log(join(out, "zot"));
