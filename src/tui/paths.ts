// Paths as the user reads them on screen: the home directory as `~`.
import { sep } from "node:path";

export function shortPath(path: string, home = process.env.HOME ?? ""): string {
  if (home === "" || home === sep) return path;
  if (path === home) return "~";
  return path.startsWith(home + sep) ? "~" + path.slice(home.length) : path;
}

/** A directory for the status line: `~` for home, and past `max` characters the middle directories cut to their first letter (`~/w/p/zot`). */
export function shortDir(path: string, max = 30, home = process.env.HOME ?? ""): string {
  const p = shortPath(path, home);
  if (p.length <= max) return p;
  const parts = p.split(sep);
  for (let i = 1; i < parts.length - 1 && parts.join(sep).length > max; i++)
    parts[i] = parts[i]!.startsWith(".") ? parts[i]!.slice(0, 2) : parts[i]!.slice(0, 1);
  return parts.join(sep);
}
