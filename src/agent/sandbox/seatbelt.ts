// The agent's sandbox policy as a macOS `sandbox-exec` profile (Seatbelt's SBPL): reads everywhere
// but the secret locations, writes only to the writable directories and the usual devices, the
// network only when allowed. Generated text, unit-tested here; it cannot run on Linux.
import type { SandboxPolicy } from "./policy.ts";

const q = (s: string): string => JSON.stringify(s);

export function seatbeltProfile(p: SandboxPolicy): string {
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-fork)",
    "(allow process-exec)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix-shm)",
    "(allow ipc-posix-sem)",
    "(allow pseudo-tty)",
    "(allow file-ioctl)",
    "(allow file-read*)",
  ];
  // Later rules win in SBPL, so the hidden paths come after the blanket allowance.
  if (p.hidden.length > 0) lines.push(`(deny file-read* file-write* ${p.hidden.map((h) => `(subpath ${q(h)})`).join(" ")})`);
  if (p.reveal.length > 0) lines.push(`(allow file-read* ${p.reveal.map((r) => `(subpath ${q(r)})`).join(" ")})`);
  const writes = [
    ...p.writable.map((w) => `(subpath ${q(w)})`),
    ...["/dev/null", "/dev/zero", "/dev/tty", "/dev/dtracehelper"].map((d) => `(literal ${q(d)})`),
    `(regex #"^/dev/ttys[0-9]+$")`,
  ];
  lines.push(`(allow file-write* ${writes.join(" ")})`);
  if (p.hidden.length > 0) lines.push(`(deny file-write* ${p.hidden.map((h) => `(subpath ${q(h)})`).join(" ")})`);
  if (p.network) lines.push("(allow network*)");
  else lines.push(`(allow network* (local ip "localhost:*") (remote ip "localhost:*") (remote unix-socket))`);
  return lines.join("\n") + "\n";
}
