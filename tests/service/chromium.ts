/**
 * A real Chromium for the browser tests, driven with playwright-core, found in this order:
 *   1. EVALGATE_TEST_CHROMIUM, a path to the executable;
 *   2. one already installed: chromium, chromium-browser, google-chrome, google-chrome-stable on
 *      PATH, /usr/bin/chromium, /snap/bin/chromium, macOS's Google Chrome.app and Chromium.app
 *      (each must answer --version: Ubuntu's chromium-browser without its snap does not);
 *   3. one that Playwright installed (PLAYWRIGHT_BROWSERS_PATH, else ~/.cache/ms-playwright or
 *      ~/Library/Caches/ms-playwright), newest revision first;
 *   4. Debian's package installed by .ci/chromium.sh (apt-get, root or sudo): the last resort.
 * No browser is ever downloaded. When none can be had the test fails saying why: it never skips.
 */
import { execFile } from "node:child_process";
import { homedir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Browser, chromium } from "playwright-core";
import { folderEntries, isExecutableFile } from "../machineFiles.js";

const run = promisify(execFile);
const INSTALL_SCRIPT = fileURLToPath(new URL("../../.ci/chromium.sh", import.meta.url));

export const CHROMIUM_NAMES = [
  "chromium",
  "chromium-browser",
  "google-chrome",
  "google-chrome-stable",
];
export const INSTALLED_CHROMIUM_PATHS = [
  "/usr/bin/chromium",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

/**
 * Flags for a quiet, offline, headless Chromium. The sandbox is Playwright's option
 * (chromiumSandbox; without it Playwright passes --no-sandbox): see launchChromiumAt.
 */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface ChromiumSearchRoots {
  /** A PATH value, searched for CHROMIUM_NAMES. */
  path: string;
  /** Fixed paths of installed browsers. */
  installed: string[];
  /** Playwright's browser folders (chromium-<revision>, chromium_headless_shell-<revision>). */
  playwright: string[];
}

export interface FoundChromium {
  path: string;
  source: "EVALGATE_TEST_CHROMIUM" | "installed" | "playwright" | "apt";
}

/** Installed browsers that exist and are executable, in the order of the search (no duplicates). */
export function installedChromiums(roots: ChromiumSearchRoots): string[] {
  const folders = roots.path.split(delimiter).filter((folder) => folder !== "");
  const onPath = CHROMIUM_NAMES.flatMap((name) => folders.map((folder) => join(folder, name)));
  return [...new Set([...onPath, ...roots.installed])].filter(isExecutableFile);
}

/** The executables inside one of Playwright's chrome-* folders (old and current layouts). */
const PLAYWRIGHT_EXECUTABLES = [
  "chrome",
  "headless_shell",
  "chrome-headless-shell",
  "Chromium.app/Contents/MacOS/Chromium",
  "Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
];

/** Browsers under Playwright's folders: newest revision first, full Chromium before the shell. */
export function playwrightChromiums(browserFolders: string[]): string[] {
  const found = browserFolders.flatMap((root) =>
    folderEntries(root).flatMap((name) => {
      const match = /^(chromium|chromium_headless_shell)-(\d+)$/.exec(name);
      if (match === null) return [];
      const builds = folderEntries(join(root, name)).filter((build) => build.startsWith("chrome-"));
      return builds.flatMap((build) =>
        PLAYWRIGHT_EXECUTABLES.map((file) => ({
          path: join(root, name, build, file),
          revision: Number(match[2]),
          shell: match[1] === "chromium_headless_shell" ? 1 : 0,
        })),
      );
    }),
  );
  return found
    .filter(({ path }) => isExecutableFile(path))
    .sort((a, b) => b.revision - a.revision || a.shell - b.shell)
    .map(({ path }) => path);
}

/** Where Playwright keeps its browsers on this machine, as Playwright itself decides it. */
export function playwrightBrowserFolders(
  env: NodeJS.ProcessEnv,
  home = homedir(),
  platform: NodeJS.Platform = process.platform,
): string[] {
  const chosen = env.PLAYWRIGHT_BROWSERS_PATH?.trim();
  if (chosen === "0") {
    const local = new URL("../../node_modules/playwright-core/.local-browsers", import.meta.url);
    return [fileURLToPath(local)];
  }
  if (chosen !== undefined && chosen !== "") return [resolve(chosen)];
  if (platform === "darwin") return [join(home, "Library", "Caches", "ms-playwright")];
  const cache = env.XDG_CACHE_HOME?.trim() || join(home, ".cache");
  return [join(cache, "ms-playwright")];
}

/** True when `path --version` runs and prints something (a shim that only complains does not). */
export async function answersVersion(path: string): Promise<boolean> {
  try {
    const { stdout } = await run(path, ["--version"], { timeout: 20_000 });
    return stdout.trim() !== "";
  } catch {
    return false;
  }
}

/** The first browser of the search that can be used, or undefined (never installs anything). */
export async function searchChromium(
  roots: ChromiumSearchRoots,
): Promise<FoundChromium | undefined> {
  for (const path of installedChromiums(roots)) {
    if (await answersVersion(path)) return { path, source: "installed" };
  }
  const fromPlaywright = playwrightChromiums(roots.playwright)[0];
  return fromPlaywright === undefined ? undefined : { path: fromPlaywright, source: "playwright" };
}

async function installWithApt(): Promise<FoundChromium> {
  try {
    const { stdout } = await run("bash", [INSTALL_SCRIPT], { timeout: 600_000 });
    const line = stdout.split("\n").find((l) => l.startsWith("CHROMIUM="));
    const path = line?.slice("CHROMIUM=".length).trim() ?? "";
    if (!isExecutableFile(path)) throw new Error(`it printed no usable CHROMIUM= line: ${stdout}`);
    return { path, source: "apt" };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `no Chromium or Chrome found (PATH, ${INSTALLED_CHROMIUM_PATHS.join(", ")}, Playwright's browsers) and .ci/chromium.sh could not install one; set EVALGATE_TEST_CHROMIUM to a Chromium or Chrome executable (${why})`,
    );
  }
}

/** EVALGATE_TEST_CHROMIUM, else the search on this machine, else apt-get. */
export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<FoundChromium> {
  const chosen = env.EVALGATE_TEST_CHROMIUM?.trim();
  if (chosen !== undefined && chosen !== "") {
    if (isExecutableFile(chosen)) return { path: chosen, source: "EVALGATE_TEST_CHROMIUM" };
    throw new Error(`EVALGATE_TEST_CHROMIUM is ${chosen}, which is not an executable file`);
  }
  const roots = {
    path: env.PATH ?? "",
    installed: INSTALLED_CHROMIUM_PATHS,
    playwright: playwrightBrowserFolders(env),
  };
  return (await searchChromium(roots)) ?? installWithApt();
}

function launch(executablePath: string, sandbox: boolean): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    chromiumSandbox: sandbox,
    args: CHROMIUM_FLAGS,
  });
}

/**
 * Launches the browser at `path` with a fresh profile (playwright makes a new user-data-dir per
 * launch), in its sandbox when `sandbox`. When Chromium says it has no usable sandbox (it needs
 * unprivileged user namespaces or a setuid helper: unprivileged containers and Ubuntu's AppArmor
 * policy deny them to Playwright's builds), it launches again without: the tests load only our
 * own pages from 127.0.0.1, with the network features above switched off.
 */
export async function launchChromiumAt(path: string, sandbox: boolean): Promise<Browser> {
  if (sandbox) {
    try {
      return await launch(path, true);
    } catch (error) {
      // Playwright's words for Chromium's "No usable sandbox!" and its kin (crbug.com/638180).
      const message = error instanceof Error ? error.message : String(error);
      if (!/Chromium sandboxing failed|No usable sandbox/.test(message)) throw error;
    }
  }
  return launch(path, false);
}

/** The browser findChromium finds; in its sandbox unless we are root (Chromium refuses that). */
export async function launchChromium(): Promise<Browser> {
  const { path } = await findChromium();
  return launchChromiumAt(path, process.getuid?.() !== 0);
}
