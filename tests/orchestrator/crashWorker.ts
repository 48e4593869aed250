/**
 * The worker process of crashResume.test.ts, run with `node --import tsx`. It drives the thread
 * engine itself (threadRunner over the review store and the checkpoints in one SQLite file), with
 * no front in between:
 *
 *   start  <sqlite file> <thread id>  records the thread and advances it to its first review,
 *                                     prints `paused <thread id> <stage>`, then waits to be killed;
 *   resume <sqlite file> <thread id>  opens the same file in a new process, records an approval
 *                                     of every pending review and advances the thread until it
 *                                     finishes, and prints `completed <JSON>` with each stage's
 *                                     status and the number of decisions.
 *
 * The writer and judge model is ollama:<EVALGATE_MODEL> at OLLAMA_BASE_URL: the test's
 * Ollama-protocol server.
 */
import { randomUUID } from "node:crypto";
import {
  buildProposalGraph,
  loadProposalConfig,
  proposalStages,
} from "../../src/graph/proposalGraph.js";
import { stageStatus } from "../../src/graph/reviewDecisions.js";
import type { OverallProposalStateType } from "../../src/graph/state.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import type { ThreadRuntime } from "../../src/orchestrator/threadRun.js";
import { createThreadRunner } from "../../src/orchestrator/threadRunner.js";
import { openReviewStore } from "../../src/store/index.js";

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
  const stages = proposalStages(sections);
  const checkpointer = await createCheckpointer({ sqlitePath, env: {} });
  const store = await openReviewStore({ sqlitePath });
  const graph = buildProposalGraph({ model, sections }).compile({
    checkpointer: checkpointer.saver,
  });
  const runtime: ThreadRuntime = {
    graph,
    saver: checkpointer.saver,
    overrideSettings: false,
    retention: "all",
    stages,
  };
  const runner = createThreadRunner(store, runtime);

  if (mode === "start") {
    await store.createThread(
      {
        id: threadId,
        title: threadId,
        creator: "crash-test",
        status: "queued",
        settings: { input: { rfpDocument: CRASH_RFP } },
      },
      { type: "queued", message: "started by the crash test" },
    );
    const outcome = await runner.advance(threadId);
    const [row] = await store.pendingOf(threadId);
    if (outcome !== "waiting" || row === undefined) {
      throw new WorkerUsageError(`the run did not pause at a review (${outcome})`);
    }
    process.stdout.write(`paused ${threadId} ${row.stage}\n`);
    // Wait here, the database open, until the test kills the process.
    setInterval(() => undefined, 60_000);
    return;
  }

  // A job left by the killed process is taken up: the engine runs on from the checkpoint.
  let outcome = await runner.advance(threadId);
  while (outcome === "waiting") {
    const [row] = await store.pendingOf(threadId);
    if (row === undefined) throw new WorkerUsageError("waiting without a pending review");
    const decision = {
      id: randomUUID(),
      threadId,
      interruptId: row.interruptId,
      stage: row.stage,
      reviewer: "crash-test",
      action: "approve" as const,
      payload: {},
      decidedAt: new Date().toISOString(),
    };
    const recorded = await store.recordDecision(decision, []);
    if (recorded.kind !== "recorded") throw new WorkerUsageError(`decision ${recorded.kind}`);
    outcome = await runner.advance(threadId);
  }
  if (outcome !== "finished") throw new WorkerUsageError(`the run ended ${outcome}`);
  const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
  const values = snapshot.values as OverallProposalStateType;
  const statuses = Object.fromEntries(
    stages.map((stage) => [stage.id, stageStatus(values, stage)]),
  );
  const decisions = (await store.decisionsOf(threadId)).filter((d) => d.appliedAt !== null);
  process.stdout.write(
    `completed ${JSON.stringify({ statuses, decisions: decisions.length, history: values.reviewHistory.length })}\n`,
  );
  await store.close();
  await checkpointer.close();
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
