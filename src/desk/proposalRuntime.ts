/** The proposal graph compiled on a checkpoint store, with its stages and run context. */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import {
  buildProposalGraph,
  loadProposalConfig,
  type ProposalGraphOptions,
  proposalStages,
  type SectionConfig,
} from "../graph/proposalGraph.js";
import type { JudgeModel } from "../llm/chatModel.js";
import { type CheckpointRetention, retentionFromEnv } from "../orchestrator/checkpointRetention.js";
import type { StageProgressListener } from "../orchestrator/stageProgress.js";
import type { AfterStop } from "../orchestrator/threadRun.js";

export interface ProposalRuntimeOptions {
  model?: JudgeModel;
  maxRevisions?: number;
  /** The sections to write (default: config/proposal.json). */
  sections?: readonly SectionConfig[];
  /** Resume threads with these settings although they were started with others. */
  overrideSettings?: boolean;
  /** `latest`: prune a finished thread to its last checkpoint (default: from the environment). */
  retention?: CheckpointRetention;
  onProgress?: StageProgressListener;
  /** The process is stopping (Ctrl-C): a run it cuts short is not a failure of the thread. */
  stopping?: AbortSignal | undefined;
  /** What a run cut short by `stopping` records in the index (the desk says). */
  afterStop?: AfterStop | undefined;
  graph?: Omit<ProposalGraphOptions, "model" | "maxRevisions" | "sections">;
}

export function compileProposalGraph(saver: BaseCheckpointSaver, options: ProposalRuntimeOptions) {
  const sections = options.sections ?? loadProposalConfig();
  const graphOptions: ProposalGraphOptions = { ...options.graph, sections };
  if (options.model !== undefined) graphOptions.model = options.model;
  if (options.maxRevisions !== undefined) graphOptions.maxRevisions = options.maxRevisions;
  return {
    graph: buildProposalGraph(graphOptions).compile({ checkpointer: saver }),
    saver,
    context: options.maxRevisions === undefined ? {} : { maxRevisions: options.maxRevisions },
    overrideSettings: options.overrideSettings === true,
    retention: options.retention ?? retentionFromEnv(),
    stages: proposalStages(sections),
    onProgress: options.onProgress,
    stopping: options.stopping,
    afterStop: options.afterStop,
  };
}

export type ProposalRuntime = ReturnType<typeof compileProposalGraph>;

/**
 * What the index says of a thread whose run this desk's process cut short by stopping: under
 * `serve` its job goes back to the queue (`queued`); where the desk runs no jobs (the CLI advancing
 * a thread itself) nothing goes on with it until someone does (`stopped`).
 */
export interface AfterStopOptions {
  stopping?: AbortSignal | undefined;
  /** Whether this desk runs the jobs (default true). */
  runsJobs: boolean;
  kind: "sqlite" | "postgres";
  /** The command that goes on with a stopped thread, as the user runs it. */
  goOnWith?: ((threadId: string) => string) | undefined;
}

/**
 * SQLite: the in-process queue stops with the service and the next start queues every thread left
 * `queued`. PostgreSQL: the job is failed for a retry another replica takes, and the recovery sweep
 * of any replica (or the next start) runs a queued thread no job holds.
 */
const BACK_ON_THE_QUEUE = {
  sqlite:
    "the service stopped during this run; it goes on from its last finished step when the service starts again",
  postgres:
    "the service stopped during this run; another replica, or the next start, goes on from its last finished step",
} as const;

export function afterStopOf(options: AfterStopOptions): AfterStop | undefined {
  if (options.stopping === undefined) return undefined;
  if (options.runsJobs) {
    const message = BACK_ON_THE_QUEUE[options.kind];
    return { status: "queued", message: () => message };
  }
  const { goOnWith } = options;
  return {
    status: "stopped",
    message: (threadId) =>
      goOnWith === undefined
        ? "the process running it was stopped; retry the thread to go on from its last finished step"
        : `the command running it was stopped; go on with: ${goOnWith(threadId)}`,
  };
}
