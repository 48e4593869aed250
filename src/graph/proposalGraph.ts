import { AIMessage } from "@langchain/core/messages";
import { Command, END, START } from "@langchain/langgraph";
import type { EvaluationNodeOptions } from "./evaluationNode.js";
import { addEvaluationStage, createProposalBuilder, nextStageNode } from "./evaluationStage.js";
import { createGenerator, type GeneratorOptions } from "./generators.js";
import {
  type DependencyMap,
  LOAD_RFP_NODE,
  loadDependencyMap,
  loadProposalConfig,
  PACKAGE_DEPENDENCIES_FILE,
  type SectionConfig,
} from "./proposalConfig.js";
import {
  CONNECTION_PAIRS_STAGE,
  RESEARCH_STAGE,
  SOLUTION_STAGE,
  type StageDefinition,
  sectionStage,
  stageNodeNames,
} from "./stages.js";
import type { OverallProposalStateType } from "./state.js";

export {
  LOAD_RFP_NODE,
  loadProposalConfig,
  type SectionConfig,
  SectionConfigSchema,
} from "./proposalConfig.js";

export interface ProposalGraphOptions {
  /** Judge and writer model (default: the run context's model, else EVALGATE_MODEL on Ollama). */
  model?: GeneratorOptions["model"];
  /** A different model for writing, when wanted. */
  writerModel?: GeneratorOptions["model"];
  /** The sections to write, in order (default: config/proposal.json). */
  sections?: readonly SectionConfig[];
  /** Stale marking after edits (default: config/dependencies.json). */
  dependencies?: DependencyMap;
  maxRevisions?: number;
  autoApprove?: boolean;
  autoRevise?: boolean;
  /** Evaluation settings shared by every stage (timeout, concurrency, mode, criteriaDir, …). */
  evaluation?: Partial<Omit<EvaluationNodeOptions, "contentType" | "resultField" | "statusField">>;
  timeoutMs?: number;
}

export function proposalStages(sections: readonly SectionConfig[]): StageDefinition[] {
  return [
    RESEARCH_STAGE,
    SOLUTION_STAGE,
    CONNECTION_PAIRS_STAGE,
    ...sections.map((s) => sectionStage(s.id, s.title)),
  ];
}

/** Steps per run: a stage takes three before its review, so LangGraph's default of 25 is too few. */
export const PROPOSAL_RECURSION_LIMIT = 150;

/**
 * The proposal graph: the RFP, then research, solution sought, connection pairs and each section,
 * every one written, evaluated and reviewed (revisions loop back, edits mark dependents stale).
 * Returns the uncompiled builder.
 * @example
 * const graph = buildProposalGraph({ model: "ollama:qwen2.5:7b" }).compile({ checkpointer });
 */
export function buildProposalGraph(options: ProposalGraphOptions = {}) {
  const sections = options.sections ?? loadProposalConfig();
  const stages = proposalStages(sections);
  const dependencies = options.dependencies ?? loadDependencyMap(PACKAGE_DEPENDENCIES_FILE);
  const descriptions = new Map(sections.map((s) => [s.id, s.description]));
  const first = nextStageNode(stages, undefined);

  const builder = createProposalBuilder();
  builder.addNode(
    LOAD_RFP_NODE,
    async (state: OverallProposalStateType) => {
      const text = state.rfpDocument?.trim();
      if (text === undefined || text === "") {
        const error = "[load RFP] no RFP: give rfpDocument (the text of the request for proposals)";
        return new Command({
          update: {
            errors: [error],
            messages: [new AIMessage("There is no RFP to write a proposal for.")],
          },
          goto: END,
        });
      }
      return new Command({
        update: { messages: [new AIMessage(`RFP loaded (${text.split(/\s+/).length} words).`)] },
        goto: first(state, {}),
      });
    },
    { ends: [...stages.map((s) => stageNodeNames(s).generate), END] },
  );
  builder.addEdge(START, LOAD_RFP_NODE);

  for (const stage of stages) {
    addEvaluationStage(builder, {
      stage,
      stages,
      dependencies,
      maxRevisions: options.maxRevisions,
      autoApprove: options.autoApprove,
      autoRevise: options.autoRevise,
      generate: createGenerator(stage, stages, {
        model: options.writerModel ?? options.model,
        timeoutMs: options.timeoutMs,
        description: descriptions.get(stage.id),
      }),
      evaluation: {
        ...options.evaluation,
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      },
    });
  }
  // A createProposalBuilder builder: every graph compiled from it checks its runs (checkingRuns).
  return builder;
}
