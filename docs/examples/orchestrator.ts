import { buildEvaluationGraph, type ModelSource, ReviewOrchestrator } from "evalgate";

/** An orchestrator service: start a gated evaluation, list what waits for review, decide. */
export async function reviewService(model: ModelSource, sqlitePath: string) {
  const orchestrator = new ReviewOrchestrator({
    graph: buildEvaluationGraph({ model }),
    checkpointerOptions: { sqlitePath },
  });
  const started = await orchestrator.start({
    content: "Flooding displaced 1,240 households in 2024 (County report, p. 4).",
    contentType: "problem_statement",
  });
  for (const review of await orchestrator.pendingReviews()) {
    console.log(review.threadId, review.contentType, review.evaluation?.overallScore);
  }
  const review = started.review;
  if (review === undefined) throw new Error("expected a review");
  const done = await orchestrator.submitDecision(started.threadId, review.interruptId, {
    action: "approve",
    reviewer: "grants-team",
  });
  console.log(done.state, await orchestrator.history(started.threadId));
  await orchestrator.close();
  return done;
}
