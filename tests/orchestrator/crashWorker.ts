/**
 * The worker process of crashResume.test.ts, run with `node --import tsx`:
 *
 *   start  <sqlite file> <thread id>  runs the proposal graph under a ReviewOrchestrator on the
 *                                     SQLite file to its first review, prints
 *                                     `paused <thread id> <stage>`, then waits to be killed;
 *   resume <sqlite file> <thread id>  opens the same file in a new process, approves every review
 *                                     until the run completes and prints `completed <JSON>` with
 *                                     each stage's status and the number of decisions.
 *
 * The writer and judge model is ollama:<EVALGATE_MODEL> at OLLAMA_BASE_URL: the test's
 * Ollama-protocol server.
 */
import {
  buildProposalGraph,
  loadProposalConfig,
  proposalStages,
} from "../../src/graph/proposalGraph.js";
import { stageStatus } from "../../src/graph/reviewNode.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";

export const CRASH_RFP = [
  "Calder Bay Community Foundation — Resilient Neighbourhoods 2026.",
  "Grants of USD 50,000–150,000 over two years for flood resilience serving low-income households.",
].join("\n");

class WorkerUsageError extends Error {
  override readonly name = "WorkerUsageError";
}

async function main(argv: readonly string[]): Promise<void> {
  const [mode, sqlitePath, threadId] = argv;
  if (
    (mode !== "start" && mode !== "resume") ||
    sqlitePath === undefined ||
    threadId === undefined
  ) {
    throw new WorkerUsageError("usage: crashWorker.ts start|resume <sqlite file> <thread id>");
  }
  const model = createChatModel(`ollama:${process.env.EVALGATE_MODEL ?? ""}`, {
    env: process.env,
    maxRetries: 0,
  });
  const sections = loadProposalConfig();
  const checkpointer = await createCheckpointer({ sqlitePath, env: {} });
  const orchestrator = new ReviewOrchestrator({
    graph: buildProposalGraph({ model, sections }),
    checkpointer,
  });

  if (mode === "start") {
    const outcome = await orchestrator.start({ rfpDocument: CRASH_RFP }, { threadId });
    if (outcome.state !== "paused" || outcome.review === undefined) {
      throw new WorkerUsageError(`the run did not pause at a review (${outcome.state})`);
    }
    process.stdout.write(`paused ${threadId} ${outcome.review.contentId}\n`);
    // Wait here, the checkpointer open, until the test kills the process.
    setInterval(() => undefined, 60_000);
    return;
  }

  let review = await orchestrator.getReview(threadId);
  let values = await orchestrator.getState(threadId);
  while (review !== undefined) {
    const outcome = await orchestrator.submitDecision(threadId, review.interruptId, {
      action: "approve",
      reviewer: "crash-test",
    });
    review = outcome.review;
    values = outcome.values;
  }
  const statuses = Object.fromEntries(
    proposalStages(sections).map((stage) => [stage.id, stageStatus(values, stage)]),
  );
  process.stdout.write(
    `completed ${JSON.stringify({ statuses, decisions: values.reviewHistory.length })}\n`,
  );
  await checkpointer.close();
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
