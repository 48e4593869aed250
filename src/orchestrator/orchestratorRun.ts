/**
 * One run of a ReviewOrchestrator's graph on a thread, and where it stopped: at a review (paused),
 * at the end (completed, only when nothing is left to run or apply), or anywhere else (an error).
 */
import {
  type BaseCheckpointSaver,
  isInvalidResume,
  type StateSnapshot,
} from "@langchain/langgraph";
import { isReviewResumeInvalidError } from "../graph/errors.js";
import { sinksOfSaver, withRunSinks } from "../graph/runSinks.js";
import { threadProgress } from "../graph/threadProgress.js";
import type { RunPolicy } from "./checkpointRetention.js";
import { InvalidDecisionError, OrchestratorError } from "./errors.js";
import type { ReviewGraphRunnable, ThreadOutcome } from "./graphTypes.js";
import { reviewsOf } from "./pendingReview.js";
import { issuesOf } from "./snapshotChecks.js";

/** The compiled graph and its saver, as the orchestrator keeps them. */
export interface OrchestratorRuntime {
  graph: ReviewGraphRunnable;
  saver: BaseCheckpointSaver;
  /** The key the graph's threads are kept under in the pending-review index. */
  graphKey: string;
}

/** What a run needs beside the graph: the run policy and the index writer. */
export interface RunSteps {
  policy: RunPolicy;
  /** Writes where the thread stands into the pending-review index and returns its snapshot. */
  index(threadId: string): Promise<StateSnapshot>;
}

/** The error a failed run is reported as: a refused decision, or the graph's failure. */
function runFailure(threadId: string, error: unknown): Error {
  if (isInvalidResume(error) || isReviewResumeInvalidError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    const issues = issuesOf(error) ?? [{ field: "(decision)", message }];
    return new InvalidDecisionError(threadId, issues, { cause: error });
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new OrchestratorError(threadId, `the graph failed: ${message}`, {
    cause: error,
    code: "GRAPH_RUN_FAILED",
  });
}

/** Where the thread stopped after a run, from its snapshot (threadProgress decides). */
export async function outcomeOf<S>(
  runtime: OrchestratorRuntime,
  steps: RunSteps,
  threadId: string,
  snapshot: StateSnapshot,
): Promise<ThreadOutcome<S>> {
  const values = snapshot.values as S;
  const progress = threadProgress(snapshot);
  const [review] = reviewsOf(threadId, snapshot);
  if (review !== undefined) {
    return steps.policy.paused(runtime.saver, { threadId, state: "paused", review, values });
  }
  if (progress.kind === "finished") {
    return steps.policy.finished(runtime.saver, { threadId, state: "completed", values });
  }
  const where =
    progress.kind === "paused"
      ? `paused at interrupts that are not reviews (${progress.interrupts.map((i) => i.id).join(", ")})`
      : progress.kind === "work_left"
        ? `stopped with work left at ${progress.nodes.join(", ")} without a review`
        : "stopped before its first checkpoint";
  throw new OrchestratorError(threadId, `the run ${where}`, { code: "GRAPH_RUN_FAILED" });
}

/** Runs the graph on the thread with `input` (null: on from the last checkpoint), then reports. */
export async function runThread<S>(
  runtime: OrchestratorRuntime,
  steps: RunSteps,
  threadId: string,
  input: unknown,
): Promise<ThreadOutcome<S>> {
  try {
    // The graph may be the caller's own: its evaluation nodes find the stores beside the
    // checkpoints through the run's config.
    const config = withRunSinks(steps.policy.config(threadId), sinksOfSaver(runtime.saver));
    await runtime.graph.invoke(input, config);
  } catch (error) {
    await steps.index(threadId).catch(() => undefined);
    throw runFailure(threadId, error);
  }
  return outcomeOf<S>(runtime, steps, threadId, await steps.index(threadId));
}
