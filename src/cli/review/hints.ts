/**
 * The commands a reviewer is told to run next, as the user ran evalgate (`npx evalgate` under npm).
 */
import type { PendingReview } from "../../orchestrator/pendingReview.js";
import { evalgateCommand } from "../context.js";
import { type CheckpointStore, dbHint, quoteArg } from "./store.js";

const DECISION_FORMS: Readonly<Record<string, string>> = {
  approve: "approve",
  revise: "revise --feedback <text>",
  edit: "edit --content-file <file>",
  retry: "retry",
};

/** `approve | revise --feedback <text> | …` for the actions the review offers. */
function decisionForms(review: Pick<PendingReview, "actions">): string {
  return review.actions.map((action) => DECISION_FORMS[action] ?? action).join(" | ");
}

/** Where the hints are for: the store, the working folder and the command's environment. */
export interface HintContext {
  store: CheckpointStore;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** `evalgate run --thread <id>` (with --db when the store is not the default), as the user runs it. */
export function runThreadCommand(threadId: string, at: HintContext): string {
  return `${evalgateCommand(at.env)} run --thread ${quoteArg(threadId)}${dbHint(at.store, at.cwd)}`;
}

/** `evalgate review --retry <id>` (with --db when the store is not the default): a failed thread. */
export function retryCommand(threadId: string, at: HintContext): string {
  return `${evalgateCommand(at.env)} review --retry ${quoteArg(threadId)}${dbHint(at.store, at.cwd)}`;
}

/** `evalgate show <id>` (with --db when the store is not the default): a thread's proposal. */
export function showCommand(threadId: string, at: HintContext): string {
  return `${evalgateCommand(at.env)} show ${quoteArg(threadId)}${dbHint(at.store, at.cwd)}`;
}

export function reviewCommandHint(review: PendingReview, at: HintContext): string {
  const db = dbHint(at.store, at.cwd);
  const command = evalgateCommand(at.env);
  return `  ${command} review ${quoteArg(review.threadId)} ${decisionForms(review)}${db}\n`;
}

/** What a run that stops at a review prints: where it waits, and the two ways to go on. */
export function resumeHint(review: PendingReview, at: HintContext): string {
  return (
    `Thread ${review.threadId} is paused at: ${review.title} [${review.contentId}].\n` +
    "Go on with it later:\n" +
    `  ${runThreadCommand(review.threadId, at)}\n` +
    "or decide without prompts:\n" +
    reviewCommandHint(review, at)
  );
}
