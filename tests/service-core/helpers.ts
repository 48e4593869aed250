/** Shared setup of the review-desk tests: reviewers with tokens, and waiting for a thread. */
import type { ReviewDesk } from "../../src/desk/reviewDesk.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import type { ReviewStore } from "../../src/store/reviewStore.js";
import { hashToken, newReviewerToken } from "../../src/store/tokens.js";

export const MODEL = "evalgate-desk:test";

/** Adds a reviewer to the store and returns the token it signs in with. */
export async function addReviewer(
  store: ReviewStore,
  name: string,
  role: Reviewer["role"] = "reviewer",
): Promise<string> {
  const token = newReviewerToken();
  await store.addReviewer(name, role, hashToken(token));
  return token;
}

/**
 * Polls until `check` returns a value (not undefined). Jobs run in the background; the deadline
 * only keeps a broken test from hanging, it measures nothing.
 */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  deadlineMs = 60_000,
): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The thread's pending review once the job has paused it at one. */
export function nextReview(desk: ReviewDesk, threadId: string, by: Reviewer, after?: string) {
  return eventually(`a review of ${threadId}`, async () => {
    const status = await desk.threadStatus(threadId, by);
    if (status.status === "failed") throw new Error(`thread failed: ${status.error}`);
    if (status.status !== "waiting") return undefined;
    const review = await desk.getReview(threadId, by);
    return review.interruptId === after ? undefined : review;
  });
}

export const RFP = [
  "Calder Bay Community Foundation — Resilient Neighbourhoods 2026.",
  "Grants of USD 50,000–150,000 over two years for flood resilience serving low-income households.",
].join("\n");
