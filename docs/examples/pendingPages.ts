import type { ReviewGraphBuilder, ReviewOrchestrator } from "evalgate/review";

/** The reviews waiting, twenty at a time: the next page starts after the last review of the first. */
export async function firstTwoPages(orchestrator: ReviewOrchestrator<ReviewGraphBuilder>) {
  const first = await orchestrator.pendingReviews({ limit: 20 });
  const next = await orchestrator.pendingReviews({ limit: 20, after: first.at(-1) });
  return { first, next };
}
