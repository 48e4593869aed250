/** What a reviewer does in the browser, as steps for the browser tests. */
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

/** Generous: the machine is loaded; these bound waiting, they assert nothing about speed. */
export const STEP_TIMEOUT_MS = 120_000;

/**
 * Where screenshots go: docs/screenshots when EVALGATE_SCREENSHOTS=1 (to refresh the README's),
 * else a temp folder, so that a test run leaves the worktree clean.
 */
export function screenshotFolder(): string {
  const folder =
    process.env.EVALGATE_SCREENSHOTS === "1"
      ? fileURLToPath(new URL("../../docs/screenshots", import.meta.url))
      : join(tmpdir(), "evalgate-screenshots");
  mkdirSync(folder, { recursive: true });
  return folder;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(screenshotFolder(), `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

export async function signIn(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/reviews`);
  await page.waitForURL(`${baseUrl}/signin`);
  await page.fill("#token", token);
  await page.click("form[action='/signin'] button[type=submit]");
  await page.waitForURL(`${baseUrl}/reviews`);
}

/** The pending interrupt of the open review page. */
export async function pendingInterrupt(page: Page): Promise<string> {
  const value = await page.getAttribute("#decide input[name=interruptId]", "value");
  if (value === null) throw new Error("the page shows no decision form");
  return value;
}

/** Submits one of the review's forms, then waits through progress for the next review. */
export async function decideAndWaitForNext(
  page: Page,
  baseUrl: string,
  threadId: string,
  decide: (page: Page) => Promise<void>,
  onProgress?: (page: Page) => Promise<void>,
): Promise<{ before: string; after: string }> {
  const before = await pendingInterrupt(page);
  await decide(page);
  const reviewUrl = `${baseUrl}/reviews/${threadId}`;
  if (onProgress !== undefined) {
    await page.waitForURL((url) => url.pathname.endsWith("/progress"), {
      timeout: STEP_TIMEOUT_MS,
    });
    await onProgress(page);
  }
  await page.waitForURL(reviewUrl, { timeout: STEP_TIMEOUT_MS });
  await page.waitForSelector("#decide input[name=interruptId]", { state: "attached" });
  return { before, after: await pendingInterrupt(page) };
}
