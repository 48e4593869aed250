/**
 * A real Chromium for the browser tests: Debian's package at /usr/bin/chromium, installed by
 * .ci/chromium.sh when it is missing (as the PostgreSQL tests install PostgreSQL), driven with
 * playwright-core. When it cannot be had, the test fails and says how to get it: it never skips.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Browser, chromium } from "playwright-core";

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL("../../.ci/chromium.sh", import.meta.url));
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Flags for a quiet, offline, headless Chromium (as root it needs --no-sandbox). */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function ensureChromium(): Promise<void> {
  if (existsSync(CHROMIUM_PATH)) return;
  try {
    await run("bash", [SCRIPT], { timeout: 280_000 });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`Chromium could not be installed: run .ci/chromium.sh (${why})`);
  }
}

/** Launches Chromium with a fresh profile (playwright makes a new user-data-dir per launch). */
export async function launchChromium(): Promise<Browser> {
  await ensureChromium();
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}
