/**
 * One run of the graph on a thread, streamed step by step, each finished node and each stage's
 * progress recorded as the thread's events.
 */
import type { StateSnapshot } from "@langchain/langgraph";
import { PROPOSAL_RECURSION_LIMIT } from "../graph/proposalGraph.js";
import { RUN_SINKS_KEY, sinksOfSaver } from "../graph/runSinks.js";
import {
  createStageProgressTracker,
  describeStageProgress,
  type StageProgress,
} from "./stageProgress.js";
import type { RunnerContext } from "./threadSettle.js";

function configOf(ctx: RunnerContext, threadId: string) {
  const override = ctx.runtime.overrideSettings ? { overrideSettings: true } : {};
  return {
    // The graph may be the caller's own: its evaluation nodes find the trace store and the judge
    // cache beside the checkpoints through the run's config.
    configurable: {
      thread_id: threadId,
      ...override,
      [RUN_SINKS_KEY]: sinksOfSaver(ctx.runtime.saver),
    },
    ...(ctx.runtime.context === undefined ? {} : { context: ctx.runtime.context }),
    recursionLimit: PROPOSAL_RECURSION_LIMIT,
    // Each step's checkpoint is written before the next step starts: a decision is applied and
    // durable before the next stage's work begins, not written somewhere during it.
    durability: "sync" as const,
  };
}

export function snapshotOf(ctx: RunnerContext, threadId: string): Promise<StateSnapshot> {
  return ctx.runtime.graph.getState({ configurable: { thread_id: threadId } });
}

/** A run ends when its lock is lost or the process stops: the thread stays where it stands. */
function runSignal(ctx: RunnerContext): { signal?: AbortSignal } {
  const signals = [ctx.lost, ctx.runtime.stopping].filter((s) => s !== undefined);
  if (signals.length === 0) return {};
  return { signal: signals.length === 1 ? (signals[0] as AbortSignal) : AbortSignal.any(signals) };
}

export async function run(
  ctx: RunnerContext,
  threadId: string,
  input: unknown,
  stage: string | undefined,
) {
  await ctx.store.setThreadStatus(threadId, "running", null, {
    type: "running",
    ...(stage === undefined ? {} : { stage }),
  });
  const stream = await ctx.runtime.graph.stream(input, {
    ...configOf(ctx, threadId),
    streamMode: ["updates", "custom"],
    ...runSignal(ctx),
  });
  const tracker = createStageProgressTracker(ctx.runtime.stages);
  for await (const [mode, chunk] of stream as AsyncIterable<[string, unknown]>) {
    if (mode === "custom") {
      await reportProgress(ctx, threadId, tracker(chunk));
      continue;
    }
    const nodes = Object.keys(chunk as Record<string, unknown>).filter(
      (n) => n !== "__interrupt__",
    );
    for (const node of nodes) await ctx.store.addEvent(threadId, { type: "stage", message: node });
  }
}

/** A stage being written or judged: a `progress` event, and the desk's listener told. */
async function reportProgress(
  ctx: RunnerContext,
  threadId: string,
  progress: StageProgress | undefined,
): Promise<void> {
  if (progress === undefined) return;
  await ctx.store.addEvent(threadId, {
    type: "progress",
    stage: progress.stage,
    message: describeStageProgress(progress),
  });
  try {
    ctx.runtime.onProgress?.(threadId, progress);
  } catch {
    // A listener that fails (a closed terminal) does not stop the run.
  }
}
