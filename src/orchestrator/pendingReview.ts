import type { StateSnapshot } from "@langchain/langgraph";
import { referencedEvaluation } from "../graph/failure.js";
import {
  type InterruptMetadata,
  InterruptMetadataSchema,
  type ReviewAction,
  type ReviewRefusal,
  type RevisionRound,
} from "../graph/model.js";
import { waitingInterrupts } from "../graph/threadProgress.js";
import type { EvaluationResult } from "../scoring/result.js";

/** A thread waiting for a reviewer: which interrupt to answer and what the reviewer is shown. */
export interface PendingReview {
  threadId: string;
  /** Pass it to submitDecision: the decision answers exactly this interrupt. */
  interruptId: string;
  type: InterruptMetadata["type"];
  contentType: string;
  /** The stage under review (research, solution, connection_pairs, a section id). */
  contentId: string;
  title: string;
  description: string;
  /** The evaluation the decision is about (null when the evaluation failed). */
  evaluation: EvaluationResult | null;
  actions: ReviewAction[];
  /** What went wrong, for evaluation_error. */
  error?: string;
  revisions?: { count: number; max: number };
  /** The round of writing under review, of how many at most, and the feedback it answers. */
  round?: RevisionRound;
  pausedAt?: string;
  /** Set when the review asks again: why the last answer was refused, and how to fix it. */
  refusal?: ReviewRefusal;
}

/** The reviews among the interrupts: those whose value is the review metadata. */
export function reviewsOf(threadId: string, snapshot: StateSnapshot): PendingReview[] {
  return waitingInterrupts(snapshot).flatMap((entry) => {
    const parsed = InterruptMetadataSchema.safeParse(entry.value);
    if (!parsed.success) return [];
    const metadata = parsed.data;
    const review: PendingReview = {
      threadId,
      interruptId: entry.id,
      type: metadata.type,
      contentType: metadata.contentType,
      contentId: metadata.contentId,
      title: metadata.title,
      description: metadata.intro ?? metadata.description,
      evaluation: referencedEvaluation(metadata, snapshot.values),
      actions: metadata.actions,
    };
    if (metadata.error !== undefined) review.error = metadata.error;
    if (metadata.revisions !== undefined) review.revisions = metadata.revisions;
    if (metadata.round !== undefined) review.round = metadata.round;
    if (metadata.refusal !== undefined) review.refusal = metadata.refusal;
    if (snapshot.createdAt !== undefined) review.pausedAt = snapshot.createdAt;
    return [review];
  });
}

/**
 * Whether a decision on `interruptId` was refused, by the snapshot after the run that applied it:
 * the thread still waits there, or the stage's review asks again (its `refusal` says why).
 */
export function refusedDecision(
  threadId: string,
  snapshot: StateSnapshot,
  decision: { interruptId: string; stage: string },
): { reason?: string } | undefined {
  const reviews = reviewsOf(threadId, snapshot);
  if (reviews.some((r) => r.interruptId === decision.interruptId)) return {};
  const again = reviews.find((r) => r.contentId === decision.stage && r.refusal !== undefined);
  return again === undefined ? undefined : { reason: again.refusal?.problem };
}
