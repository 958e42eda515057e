#!/bin/sh
# Installs the zot release binary for this machine:
#   curl -fsSL https://github.com/zot-dev/zot/releases/latest/download/install.sh | sh
# Detects the OS, CPU and C library, downloads the matching archive and SHA256SUMS, checks the
# Ed25519 signature of SHA256SUMS against the release keys below (with openssl, when it is
# installed), verifies the checksum and puts `zot` in ~/.local/bin (or $ZOT_INSTALL_DIR). Every
# failure is one sentence and leaves nothing behind.
#
#   ZOT_INSTALL_BASE     where the release files are (default: the latest GitHub release)
#   ZOT_INSTALL_VERSION  a version to install instead of the latest, e.g. 0.2.0
#   ZOT_INSTALL_DIR      where to put zot (default: ~/.local/bin)
#   ZOT_INSTALL_TIMEOUT  seconds without progress before a download is given up (default: 30)
set -eu

# BEGIN RELEASE KEYS (generated from src/update/release-keys.ts by scripts/release.ts; do not edit)
release_keys='75bd19c2b08e6e97 MCowBQYDK2VwAyEA/NcAwWEj1u7q6lW6UC37LuofIlpbAMYGtJJvtBlhJkI='
# END RELEASE KEYS

releases="https://github.com/zot-dev/zot/releases"
if [ -n "${ZOT_INSTALL_BASE:-}" ]; then
  base="${ZOT_INSTALL_BASE%/}"
elif [ -n "${ZOT_INSTALL_VERSION:-}" ]; then
  base="$releases/download/v$ZOT_INSTALL_VERSION"
else
  base="$releases/latest/download"
fi
dir="${ZOT_INSTALL_DIR:-${HOME:?zot install: HOME is not set; set ZOT_INSTALL_DIR to the directory to install into.}/.local/bin}"
timeout="${ZOT_INSTALL_TIMEOUT:-30}"
tmp=""
seconds="seconds"
if [ "$timeout" = 1 ]; then seconds="second"; fi

fail() {
  printf 'zot install: %s\n' "$1" >&2
  exit 1
}

cleanup() {
  if [ -n "$tmp" ]; then rm -rf "$tmp"; fi
  if [ -n "${staged:-}" ]; then rm -f "$staged"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

case "$timeout" in
  '' | *[!0-9]*) fail "ZOT_INSTALL_TIMEOUT must be a whole number of seconds (got \"$timeout\")." ;;
esac

detect_target() {
  os=$(uname -s)
  cpu=$(uname -m)
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) fail "this is Windows; install zot with install.ps1 from PowerShell instead (irm $releases/latest/download/install.ps1 | iex)." ;;
    *) fail "zot has no release for the operating system \"$os\"; build it from source instead (see the README)." ;;
  esac
  case "$cpu" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "zot has no release for the $os CPU \"$cpu\" (there are x64 and arm64 builds); build it from source instead (see the README)." ;;
  esac
  # An x64 shell under Rosetta on Apple silicon: the native build is the better one.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    arch=arm64
  fi
  target="$os-$arch"
  if [ "$os" = linux ] && is_musl; then target="$target-musl"; fi
}

# glibc's ldd says "GNU libc" or "GLIBC"; musl's says "musl". Without ldd, the dynamic loader that is
# present decides (a glibc system may also have musl's loader installed, so glibc's is checked first).
is_musl() {
  if command -v ldd >/dev/null 2>&1; then
    case "$(ldd --version 2>&1 || true)" in
      *musl*) return 0 ;;
      *GNU* | *GLIBC* | *glibc*) return 1 ;;
    esac
  fi
  for loader in /lib64/ld-linux-x86-64.so.2 /lib/ld-linux-aarch64.so.1 /lib/ld-linux-x86-64.so.2; do
    if [ -e "$loader" ]; then return 1; fi
  done
  for loader in /lib/ld-musl-*.so.1; do
    if [ -e "$loader" ]; then return 0; fi
  done
  return 1
}

pick_downloader() {
  if command -v curl >/dev/null 2>&1; then
    downloader=curl
  elif command -v wget >/dev/null 2>&1; then
    downloader=wget
  else
    fail "neither curl nor wget is installed; install one of them and run the installer again."
  fi
}

# download URL FILE: one attempt, given up after $timeout seconds without progress.
download() {
  rc=0
  if [ "$downloader" = curl ]; then
    curl -fsSL --connect-timeout "$timeout" --speed-limit 1 --speed-time "$timeout" -o "$2" "$1" 2>"$tmp/err" || rc=$?
    case $rc in
      0) return 0 ;;
      22) fail "the server answered $1 with an error ($(sed -n 's/.*returned error: //p' "$tmp/err" | head -n 1)); check ZOT_INSTALL_BASE or ZOT_INSTALL_VERSION." ;;
      28) fail "no progress for $timeout $seconds while downloading $1; check the connection (or raise ZOT_INSTALL_TIMEOUT) and run the installer again." ;;
      18 | 56) fail "the download of $1 was cut short; nothing was installed; run the installer again." ;;
      *) fail "could not download $1 ($(head -n 1 "$tmp/err")); check the connection and ZOT_INSTALL_BASE." ;;
    esac
  fi
  # busybox wget (Alpine) has no --tries and does not retry; GNU wget retries 20 times unless told.
  if wget --version >/dev/null 2>&1; then
    wget -q --tries=1 -T "$timeout" -O "$2" "$1" 2>"$tmp/err" || rc=$?
  else
    wget -q -T "$timeout" -O "$2" "$1" 2>"$tmp/err" || rc=$?
  fi
  case $rc in
    0) return 0 ;;
    8) fail "the server answered $1 with an error; check ZOT_INSTALL_BASE or ZOT_INSTALL_VERSION." ;;
    *) fail "could not download $1 (wget exit $rc: a network failure, no progress for $timeout $seconds, or a cut-short download); nothing was installed; run the installer again." ;;
  esac
}

pick_sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256_tool="sha256sum"
  elif command -v shasum >/dev/null 2>&1; then
    sha256_tool="shasum -a 256"
  elif command -v openssl >/dev/null 2>&1; then
    sha256_tool="openssl dgst -sha256 -r"
  else
    fail "no SHA-256 tool (sha256sum, shasum or openssl) is installed, so the download cannot be verified; install one and run the installer again."
  fi
}

# SHA256SUMS.sig: one "<key id> <base64 signature>" line per signing key. One valid line by a key
# of $release_keys is enough. openssl 3 verifies Ed25519 (pkeyutl -rawin); without it the checksum
# still catches a corrupt download, but not a mirror that changed both files, and the user is told.
verify_signature() {
  if ! command -v openssl >/dev/null 2>&1 || ! openssl pkeyutl -help 2>&1 | grep -q -- -rawin; then
    printf 'zot install: openssl 3 is not installed, so the signature of SHA256SUMS was not checked (the checksum still catches a corrupt download, not a tampered mirror); install openssl to have it checked.\n' >&2
    return 0
  fi
  while read -r id sig; do
    key=$(printf '%s\n' "$release_keys" | awk -v id="$id" '$1 == id { print $2; exit }')
    [ -n "$key" ] || continue
    printf '%s\n' "-----BEGIN PUBLIC KEY-----" "$key" "-----END PUBLIC KEY-----" >"$tmp/key.pem"
    printf '%s' "$sig" | openssl base64 -d -A >"$tmp/sig.bin" 2>/dev/null || continue
    if openssl pkeyutl -verify -pubin -inkey "$tmp/key.pem" -rawin -in "$tmp/SHA256SUMS" -sigfile "$tmp/sig.bin" >/dev/null 2>&1; then
      return 0
    fi
  done <"$tmp/SHA256SUMS.sig"
  fail "the signature of $base/SHA256SUMS is not valid for any zot release key: the release was tampered with or is not an official one; nothing was installed."
}

detect_target
pick_downloader
pick_sha256
tmp=$(mktemp -d 2>/dev/null || mktemp -d -t zot-install)

if [ -n "${ZOT_INSTALL_VERSION:-}" ]; then
  version="$ZOT_INSTALL_VERSION"
else
  download "$base/VERSION" "$tmp/VERSION"
  version=$(head -n 1 "$tmp/VERSION" | tr -d '\r')
fi
case "$version" in
  '' | *[!0-9A-Za-z.-]*) fail "$base/VERSION does not hold a version number; check ZOT_INSTALL_BASE." ;;
esac

archive="zot-$version-$target.tar.gz"
download "$base/SHA256SUMS" "$tmp/SHA256SUMS"
download "$base/SHA256SUMS.sig" "$tmp/SHA256SUMS.sig"
verify_signature
expected=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS")
if [ -z "$expected" ]; then
  fail "zot $version has no release for $target ($archive is not listed in $base/SHA256SUMS); build it from source instead (see the README)."
fi

printf 'zot install: downloading %s\n' "$archive" >&2
download "$base/$archive" "$tmp/$archive"
actual=$($sha256_tool "$tmp/$archive" | cut -d ' ' -f 1)
if [ "$actual" != "$expected" ]; then
  fail "checksum mismatch for $archive (expected $expected, got $actual): the download is corrupt or was tampered with; nothing was installed."
fi

mkdir "$tmp/unpacked"
tar -xzf "$tmp/$archive" -C "$tmp/unpacked" 2>"$tmp/err" || fail "could not unpack $archive ($(head -n 1 "$tmp/err")); nothing was installed."
binary="$tmp/unpacked/zot-$version-$target/zot"
[ -f "$binary" ] || fail "$archive holds no zot-$version-$target/zot; nothing was installed."

mkdir -p "$dir" 2>/dev/null || fail "cannot create $dir; set ZOT_INSTALL_DIR to a directory you can write."
# Copied beside the target, then renamed over it: a running zot keeps working and nothing half-written is left.
staged="$dir/.zot-install-$$"
cp "$binary" "$staged" 2>/dev/null || fail "cannot write to $dir; set ZOT_INSTALL_DIR to a directory you can write."
chmod 755 "$staged"
mv -f "$staged" "$dir/zot"
staged=""

printf 'zot install: installed %s at %s\n' "$("$dir/zot" --version 2>/dev/null || echo "zot $version")" "$dir/zot" >&2
case ":${PATH:-}:" in
  *":$dir:"*) ;;
  *) printf 'zot install: %s is not on your PATH; add it with\n  export PATH="%s:$PATH"\nin your shell profile (~/.profile, ~/.bashrc or ~/.zshrc).\n' "$dir" "$dir" >&2 ;;
esac
