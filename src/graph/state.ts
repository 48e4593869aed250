import type { BaseMessage } from "@langchain/core/messages";
import { Annotation, type BaseChannel, messagesStateReducer } from "@langchain/langgraph";
import { z } from "zod";
import { EvaluationModeSchema } from "../engine/options.js";
import type { EvaluationResult } from "../scoring/result.js";
import {
  type DecisionRecord,
  type InterruptMetadata,
  type ProcessingStatus,
  ProcessingStatusSchema,
  type SectionData,
  SectionDataSchema,
} from "./model.js";

export function appendUniqueErrors(current: string[], update: string[] | string): string[] {
  const incoming = Array.isArray(update) ? update : [update];
  const seen = new Set(current);
  const added = incoming.filter((e) => {
    if (seen.has(e)) return false;
    seen.add(e);
    return true;
  });
  return added.length === 0 ? current : [...current, ...added];
}

export function mergeSections(
  current: Record<string, SectionData>,
  update: Record<string, Partial<SectionData>>,
): Record<string, SectionData> {
  const next: Record<string, SectionData> = { ...current };
  for (const [id, patch] of Object.entries(update)) {
    const before = next[id];
    next[id] = {
      ...(before ?? { id, status: "not_started" }),
      ...patch,
      id,
    } as SectionData;
  }
  return next;
}

function mergeRecord<V>(current: Record<string, V>, update: Record<string, V>) {
  return { ...current, ...update };
}

const status = () =>
  Annotation<ProcessingStatus>({
    reducer: (_current, update) => update,
    default: () => "not_started",
  });

/**
 * `OverallProposalState`: every stage's content, status and evaluation, the review fields and the
 * decision history.
 */
export const OverallProposalState = Annotation.Root({
  rfpDocument: Annotation<string | undefined>(),
  applicantInput: Annotation<string | undefined>(),

  researchResults: Annotation<Record<string, unknown> | undefined>(),
  researchStatus: status(),
  researchEvaluation: Annotation<EvaluationResult | null | undefined>(),

  solutionSoughtResults: Annotation<Record<string, unknown> | undefined>(),
  solutionSoughtStatus: status(),
  solutionSoughtEvaluation: Annotation<EvaluationResult | null | undefined>(),

  connectionPairs: Annotation<Array<Record<string, unknown>> | undefined>(),
  connectionPairsStatus: status(),
  connectionPairsEvaluation: Annotation<EvaluationResult | null | undefined>(),

  sections: Annotation<Record<string, SectionData>, Record<string, Partial<SectionData>>>({
    reducer: mergeSections,
    default: () => ({}),
  }),

  isInterrupted: Annotation<boolean>({ reducer: (_c, u) => u, default: () => false }),
  interruptMetadata: Annotation<InterruptMetadata | null | undefined>(),

  /** Revisions made per stage, and the reviewer's latest feedback for its generator. */
  revisionCounts: Annotation<Record<string, number>>({ reducer: mergeRecord, default: () => ({}) }),
  revisionFeedback: Annotation<Record<string, string>>({
    reducer: mergeRecord,
    default: () => ({}),
  }),
  reviewHistory: Annotation<DecisionRecord[], DecisionRecord[]>({
    reducer: (current, update) => [...current, ...update],
    default: () => [],
  }),

  threadSettings: Annotation<ThreadSettings | undefined>(),

  messages: Annotation<BaseMessage[], BaseMessage[]>({
    reducer: messagesStateReducer,
    default: () => [],
  }),
  errors: Annotation<string[], string[] | string>({
    reducer: appendUniqueErrors,
    default: () => [],
  }),
});

export type OverallProposalStateType = typeof OverallProposalState.State;

export const EvaluationContextSchema = z.object({
  model: z
    .string()
    .min(1)
    .optional()
    .describe("Judge and generator model as provider:model, e.g. ollama:qwen2.5:7b-instruct"),
  passingThreshold: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("Overall 0–1 score a content must reach (overrides the catalog's)"),
  maxRevisions: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Revisions per stage before the reviewer must approve or edit"),
  mode: EvaluationModeSchema.optional().describe(
    "auto, per-criterion calls, one call per slot group, or one batch call",
  ),
});
export type EvaluationContext = z.infer<typeof EvaluationContextSchema>;

/** The settings as a graph's context type: each optional, as EvaluationContextSchema says. */
export type GraphContextDefinition = {
  [K in keyof EvaluationContext]?: BaseChannel<EvaluationContext[K]>;
};

/**
 * EvaluationContextSchema as a graph's `context` option: the zod schema at run time (Studio draws
 * its fields, each run's context is checked with it), typed with every setting optional. LangGraph
 * types a zod context schema with every key required, so a node of the user's graph could not pass
 * its own `config` (context `Record<string, any>`) on to a compiled gate as is.
 */
export const GraphContextSchema = EvaluationContextSchema as unknown as GraphContextDefinition;

/** A run's context as the nodes read it (an invalid one, refused before the run, reads as none). */
export function runContext(config: { context?: unknown } | undefined): EvaluationContext {
  return EvaluationContextSchema.safeParse(config?.context ?? {}).data ?? {};
}

export const ThreadSettingsSchema = EvaluationContextSchema.extend({
  recordedAt: z.string(),
  overrides: z
    .array(z.object({ at: z.string(), changes: z.array(z.string()) }))
    .default([])
    .optional(),
});
export type ThreadSettings = z.infer<typeof ThreadSettingsSchema>;

/** What the nodes return: a partial state, list fields as the items to add. */
export type ProposalUpdate = Partial<
  Omit<OverallProposalStateType, "sections" | "messages" | "errors" | "reviewHistory">
> & {
  sections?: Record<string, Partial<SectionData>>;
  messages?: BaseMessage[];
  errors?: string[];
  reviewHistory?: DecisionRecord[];
};

/** What a proposal run starts from: the RFP, the applicant's input and optionally stages done earlier. */
export const ProposalInputSchema = z.object({
  rfpDocument: z.string().optional().describe("The text of the request for proposals"),
  applicantInput: z
    .string()
    .optional()
    .describe("The applicant: organisation, track record, capabilities, project idea"),
  researchResults: z.record(z.string(), z.unknown()).optional(),
  researchStatus: ProcessingStatusSchema.optional(),
  solutionSoughtResults: z.record(z.string(), z.unknown()).optional(),
  solutionSoughtStatus: ProcessingStatusSchema.optional(),
  connectionPairs: z.array(z.record(z.string(), z.unknown())).optional(),
  connectionPairsStatus: ProcessingStatusSchema.optional(),
  sections: z.record(z.string(), SectionDataSchema.partial()).optional(),
});
export type ProposalInput = z.infer<typeof ProposalInputSchema>;
