/**
 * Where a thread is: paused, completed, or stopped between two reviews (run on from its last
 * checkpoint).
 */

import type { ReviewDeskHandle } from "../../desk/createReviewDesk.js";
import type { buildProposalGraph } from "../../graph/proposalGraph.js";
import { threadProgress } from "../../graph/threadProgress.js";
import type { GraphState } from "../../orchestrator/orchestratorEngine.js";
import { type PendingReview, reviewsOf } from "../../orchestrator/pendingReview.js";

export type ProposalValues = GraphState<ReturnType<typeof buildProposalGraph>>;

/** Stopped: work left at the nodes `next` without a review. */
export type ThreadView =
  | { kind: "paused"; review: PendingReview; values: ProposalValues }
  | { kind: "completed"; values: ProposalValues }
  | { kind: "stopped"; next: readonly string[]; values: ProposalValues };

/** Where the thread is now (CHECKPOINT_NOT_FOUND / ForeignThreadError from the desk). */
export async function threadView(desk: ReviewDeskHandle, threadId: string): Promise<ThreadView> {
  const snapshot = await desk.threadSnapshot(threadId);
  const values = snapshot.values as ProposalValues;
  const [review] = reviewsOf(threadId, snapshot);
  if (review !== undefined) return { kind: "paused", review, values };
  const progress = threadProgress(snapshot);
  if (progress.kind === "finished") return { kind: "completed", values };
  const next =
    progress.kind === "work_left"
      ? progress.nodes
      : progress.kind === "paused"
        ? progress.interrupts.map((i) => i.node)
        : [];
  return { kind: "stopped", next, values };
}
