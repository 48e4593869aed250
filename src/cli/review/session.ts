/**
 * What the review commands work on: the proposal graph, compiled by a ReviewOrchestrator on the
 * checkpoint store, plus a view of a thread that tells a paused, completed or stopped run apart
 * (threadProgress decides). A thread "stopped" when its process ended between two reviews (killed
 * during a model call, or after a node finished and before its writes became a checkpoint): the
 * desk's continueThread runs it on from its last checkpoint, so nothing finished is done again.
 * "completed" means nothing is left to run or apply.
 */
import type { StateSnapshot } from "@langchain/langgraph";
import {
  buildProposalGraph,
  loadProposalConfig,
  type ProposalGraphOptions,
  proposalStages,
} from "../../graph/proposalGraph.js";
import type { StageDefinition } from "../../graph/stages.js";
import { evaluationContext } from "../../graph/state.js";
import { threadProgress } from "../../graph/threadProgress.js";
import type { JudgeModel } from "../../llm/chatModel.js";
import { type Checkpointer, createCheckpointer } from "../../orchestrator/checkpointer.js";
import type { GraphState } from "../../orchestrator/graphTypes.js";
import type { PendingReview } from "../../orchestrator/pendingReview.js";
import { ReviewOrchestrator } from "../../orchestrator/reviewOrchestrator.js";
import type { CheckpointStore } from "./store.js";

export type ProposalBuilder = ReturnType<typeof buildProposalGraph>;
export type ProposalValues = GraphState<ProposalBuilder>;

/**
 * Where a thread is: waiting for a review, finished, or stopped with work left at the nodes `next`
 * (nodes to run, or whose writes wait to be applied) without a review.
 */
export type ThreadView =
  | { kind: "paused"; review: PendingReview; values: ProposalValues }
  | { kind: "completed"; values: ProposalValues }
  | { kind: "stopped"; next: readonly string[]; values: ProposalValues };

export interface ReviewSessionOptions {
  store: CheckpointStore;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** The writer and judge model; without one, the graph's default (EVALGATE_MODEL on Ollama). */
  model?: JudgeModel;
  maxRevisions?: number;
  /** Resume with these settings although the thread was started with others. */
  overrideSettings?: boolean;
}

export interface ReviewSession {
  readonly orchestrator: ReviewOrchestrator<ProposalBuilder>;
  /** The stages of the proposal graph, in order. */
  readonly stages: readonly StageDefinition[];
  /** Where the thread is now (CHECKPOINT_NOT_FOUND / ForeignThreadError from the orchestrator). */
  view(threadId: string): Promise<ThreadView>;
  close(): Promise<void>;
}

function runContext(maxRevisions: number | undefined) {
  return evaluationContext(maxRevisions === undefined ? {} : { maxRevisions });
}

/** Opens the checkpoint store and the orchestrator over the proposal graph. */
export async function openReviewSession(options: ReviewSessionOptions): Promise<ReviewSession> {
  const sections = loadProposalConfig();
  const graphOptions: ProposalGraphOptions = { sections };
  if (options.model !== undefined) graphOptions.model = options.model;
  if (options.maxRevisions !== undefined) graphOptions.maxRevisions = options.maxRevisions;
  const builder = buildProposalGraph(graphOptions);
  const checkpointer: Checkpointer = await createCheckpointer(
    options.store.kind === "sqlite"
      ? { sqlitePath: options.store.path, env: options.env, cwd: options.cwd }
      : { databaseUrl: options.store.url, env: options.env, cwd: options.cwd },
  );
  const context = runContext(options.maxRevisions);
  const overrideSettings = options.overrideSettings === true;
  const orchestrator = new ReviewOrchestrator({
    ...{ graph: builder, checkpointer, context, overrideSettings },
  });
  // The same graph on the same store, for reading where a thread without a review stopped.
  const graph = builder.compile({ checkpointer: checkpointer.saver });
  const config = (threadId: string) => ({
    configurable: { thread_id: threadId, ...(overrideSettings ? { overrideSettings } : {}) },
  });

  const view = async (threadId: string): Promise<ThreadView> => {
    const review = await orchestrator.getReview(threadId);
    const snapshot: StateSnapshot = await graph.getState(config(threadId));
    const values = snapshot.values as ProposalValues;
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
  };

  return {
    orchestrator,
    stages: proposalStages(sections),
    view,
    async close() {
      await orchestrator.close();
      await checkpointer.close();
    },
  };
}
