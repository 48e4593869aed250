/** The proposal graph compiled on a checkpoint store, with its stages and run context. */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import {
  buildProposalGraph,
  loadProposalConfig,
  type ProposalGraphOptions,
  proposalStages,
  type SectionConfig,
} from "../graph/proposalGraph.js";
import type { EvaluationContext } from "../graph/state.js";
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
  const graph = buildProposalGraph(graphOptions).compile({ checkpointer: saver });
  const context: EvaluationContext =
    options.maxRevisions === undefined ? {} : { maxRevisions: options.maxRevisions };
  const overrideSettings = options.overrideSettings === true;
  const retention = options.retention ?? retentionFromEnv();
  const stages = proposalStages(sections);
  const { onProgress, stopping, afterStop } = options;
  return {
    graph,
    saver,
    context,
    overrideSettings,
    retention,
    stages,
    onProgress,
    stopping,
    afterStop,
  };
}

export type ProposalRuntime = ReturnType<typeof compileProposalGraph>;
