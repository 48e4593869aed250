/** The commands a reviewer is told to run next: resuming a paused run, deciding without prompts. */
import type { PendingReview } from "../../orchestrator/pendingReview.js";
import { type CheckpointStore, dbHint, quoteArg } from "./store.js";

const DECISION_FORMS: Readonly<Record<string, string>> = {
  approve: "approve",
  revise: "revise --feedback <text>",
  edit: "edit --content-file <file>",
  retry: "retry",
};

/** `approve | revise --feedback <text> | …` for the actions the review offers. */
export function decisionForms(review: Pick<PendingReview, "actions">): string {
  return review.actions.map((action) => DECISION_FORMS[action] ?? action).join(" | ");
}

/** How to decide on the review with `evalgate review`. */
export function reviewCommandHint(
  review: PendingReview,
  store: CheckpointStore,
  cwd: string,
): string {
  const db = dbHint(store, cwd);
  return `  evalgate review ${quoteArg(review.threadId)} ${decisionForms(review)}${db}\n`;
}

/** What a run that stops at a review prints: where it waits, and the two ways to go on. */
export function resumeHint(review: PendingReview, store: CheckpointStore, cwd: string): string {
  const db = dbHint(store, cwd);
  const thread = quoteArg(review.threadId);
  return (
    `Thread ${review.threadId} is paused at: ${review.title} [${review.contentId}].\n` +
    "Go on with it later:\n" +
    `  evalgate run --thread ${thread}${db}\n` +
    "or decide without prompts:\n" +
    reviewCommandHint(review, store, cwd)
  );
}
