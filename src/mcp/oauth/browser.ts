// Opening the login page: `$ZOT_BROWSER URL` when set, else `open` (macOS) or `xdg-open` (a Linux
// desktop). Started and forgotten: zot never waits for it, and with no opener (an SSH session) the
// printed URL is the way in.
import { spawn } from "node:child_process";

/** Starts the opener; returns a sentence when there is none or it could not start. */
export function openBrowser(url: string, env: Record<string, string | undefined>): string | null {
  const command = env.ZOT_BROWSER || (process.platform === "darwin" ? "open" : desktop(env) ? "xdg-open" : "");
  if (!command) return "no browser to open here (no desktop session); open the URL above in any browser that can reach this machine's 127.0.0.1";
  const path = command.includes("/") ? command : Bun.which(command, { PATH: env.PATH ?? "" });
  if (!path) return `${command} is not installed; open the URL above yourself`;
  try {
    const child = spawn(path, [url], { stdio: "ignore", detached: true, env: env as NodeJS.ProcessEnv });
    child.on("error", () => {});
    child.unref();
    return null;
  } catch (e) {
    return `could not start ${command} (${(e as Error).message}); open the URL above yourself`;
  }
}

function desktop(env: Record<string, string | undefined>): boolean {
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY) && process.platform !== "win32";
}
