// Paths as the user reads them on screen: the home directory as `~`.
import { sep } from "node:path";

export function shortPath(path: string, home = process.env.HOME ?? ""): string {
  if (home === "" || home === sep) return path;
  if (path === home) return "~";
  return path.startsWith(home + sep) ? "~" + path.slice(home.length) : path;
}
