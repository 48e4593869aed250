/**
 * The proposal as a document, built from a thread's state by one function for the CLI, the API and
 * the pages: the sections in order, appendix A with what they were written from, appendix B with
 * each stage's gate record. A thread that has not finished is a draft.
 */
import { z } from "zod";
import { registryVersionOf } from "../criteria/activeCatalog.js";
import { ACCEPTED_STATUSES, type ProcessingStatus } from "../graph/model.js";
import { stageContent, stageStatus } from "../graph/reviewDecisions.js";
import type { StageDefinition } from "../graph/stages.js";
import type { OverallProposalStateType } from "../graph/state.js";
import { parseStatePath, readStatePath } from "../graph/statePath.js";
import { structuredContentOf } from "../graph/structuredContent.js";
import { proposalTitle, rfpTitle } from "./title.js";

const StagePartSchema = z.object({
  stage: z.string(),
  title: z.string(),
  status: z.string(),
  accepted: z.boolean(),
});

export const ProposalSectionSchema = StagePartSchema.extend({ text: z.string().nullable() });
export type ProposalSection = z.infer<typeof ProposalSectionSchema>;

export const ProposalInputPartSchema = StagePartSchema.extend({
  shape: z.enum(["object", "list"]),
  content: z.unknown(),
});
export type ProposalInputPart = z.infer<typeof ProposalInputPartSchema>;

export const GateDecisionSchema = z.object({
  action: z.string(),
  reviewer: z.string().optional(),
  decidedAt: z.string(),
  feedback: z.string().optional(),
  comment: z.string().optional(),
  corrections: z.number().int().optional(),
});

export const GateRecordSchema = StagePartSchema.extend({
  overallScore: z.number().nullable(),
  /** False when the stage's evaluation could judge no criterion (its score says nothing). */
  judged: z.boolean(),
  verdict: z.string().nullable(),
  fundingStatus: z.string().optional(),
  passed: z.boolean().nullable(),
  /** The catalog version that judged it, `solution@1.0.1` (the registry's, when a store supplied it). */
  judgedWith: z.string().nullable(),
  /** The content was edited after this evaluation: the score is the replaced content's. */
  scoredBeforeEdit: z.boolean(),
  /** The round of writing the current version came from (1 + revisions; 0: nothing written). */
  round: z.number().int().min(0),
  decisions: z.array(GateDecisionSchema),
});
export type GateRecord = z.infer<typeof GateRecordSchema>;

/** An error, with the stage it belongs to when its tag names one (`[evaluate <id>]`, …). */
const ThreadErrorSchema = z.object({ stage: z.string().optional(), message: z.string() });

export const ProposalDocumentSchema = z.object({
  threadId: z.string(),
  title: z.string(),
  respondsTo: z.string().optional(),
  state: z.enum(["complete", "draft"]),
  sections: z.array(ProposalSectionSchema),
  inputs: z.array(ProposalInputPartSchema),
  gates: z.array(GateRecordSchema),
  pending: z.array(StagePartSchema),
  /** What still stands (each errored stage's latest error, untagged ones), and what is superseded. */
  errors: z.object({ current: z.array(ThreadErrorSchema), superseded: z.array(ThreadErrorSchema) }),
});
export type ProposalDocument = z.infer<typeof ProposalDocumentSchema>;

export interface ProposalDocumentInput {
  threadId: string;
  title?: string;
  values: OverallProposalStateType;
  stages: readonly StageDefinition[];
  finished: boolean;
}

const GateFieldsSchema = z.looseObject({
  overallScore: z.number(),
  verdict: z.string(),
  passed: z.boolean(),
  status: z.string().optional(),
  criteria: z.array(z.looseObject({ evaluated: z.boolean() })).optional(),
  catalog: z
    .looseObject({ id: z.string(), version: z.string(), registryVersion: z.string().optional() })
    .optional(),
});

/** `solution@1.0.1`: the registry version a result records, else its catalog's id and version. */
function judgedWithOf(evaluation: z.infer<typeof GateFieldsSchema> | undefined): string | null {
  const catalog = evaluation?.catalog;
  if (catalog === undefined) return null;
  return catalog.registryVersion ?? registryVersionOf(catalog);
}

function partOf(values: OverallProposalStateType, stage: StageDefinition) {
  const status: ProcessingStatus = stageStatus(values, stage);
  return { stage: stage.id, title: stage.title, status, accepted: ACCEPTED_STATUSES.has(status) };
}

function gateOf(values: OverallProposalStateType, stage: StageDefinition): GateRecord {
  const part = partOf(values, stage);
  const parsed = GateFieldsSchema.safeParse(
    readStatePath(values, parseStatePath(stage.resultField)),
  );
  const evaluation = parsed.success ? parsed.data : undefined;
  const decisions = (values.reviewHistory ?? [])
    .filter((d) => d.contentId === stage.id)
    .map(({ action, decidedAt, reviewer, feedback, comment, corrections }) => {
      return { action, decidedAt, reviewer, feedback, comment, corrections: corrections?.length };
    });
  const written = stageContent(values, stage) !== undefined;
  const judged =
    evaluation !== undefined && (evaluation.criteria?.some((c) => c.evaluated) ?? true);
  return {
    ...part,
    overallScore: judged ? (evaluation?.overallScore ?? null) : null,
    judged,
    verdict: evaluation?.verdict ?? null,
    ...(evaluation?.status === undefined ? {} : { fundingStatus: evaluation.status }),
    passed: evaluation?.passed ?? null,
    judgedWith: judgedWithOf(evaluation),
    scoredBeforeEdit: evaluation !== undefined && part.status === "edited",
    round: written ? (values.revisionCounts?.[stage.id] ?? 0) + 1 : 0,
    decisions,
  };
}

export function buildProposalDocument(input: ProposalDocumentInput): ProposalDocument {
  const { values, stages } = input;
  const sections: ProposalSection[] = [];
  const inputs: ProposalInputPart[] = [];
  for (const stage of stages) {
    const content = stageContent(values, stage);
    const type = structuredContentOf(stage);
    if (type === undefined) {
      sections.push({
        ...partOf(values, stage),
        text: typeof content === "string" ? content : null,
      });
    } else {
      inputs.push({ ...partOf(values, stage), shape: type.shape, content: content ?? null });
    }
  }
  const pending = stages.map((s) => partOf(values, s)).filter((p) => !p.accepted);
  const respondsTo = rfpTitle(values.rfpDocument);
  const complete = input.finished && pending.length === 0;
  return {
    threadId: input.threadId,
    title: proposalTitle(values, input.title),
    ...(respondsTo === undefined ? {} : { respondsTo }),
    state: complete ? "complete" : "draft",
    sections,
    inputs,
    gates: stages.map((s) => gateOf(values, s)),
    pending,
    errors: threadErrors(values, stages),
  };
}

/**
 * The errors of a thread: an error is current only while its stage still stands on it (status
 * `error`, its latest error); a stage that moved on has superseded its errors.
 */
type ThreadErrors = ProposalDocument["errors"];

/** The tag that names an error's stage. */
const STAGE_TAG = /^\[(?:evaluate|generate) ([^\]\s]+)\]/;

export function threadErrors(
  values: Pick<OverallProposalStateType, "errors"> & Partial<OverallProposalStateType>,
  stages: readonly StageDefinition[],
): ThreadErrors {
  const errors = values.errors ?? [];
  const byId = new Map(stages.map((s) => [s.id, s]));
  const tagged = errors.map((message) => {
    const id = STAGE_TAG.exec(message)?.[1];
    return id !== undefined && byId.has(id) ? { stage: id, message } : { message };
  });
  const lastOf = new Map<string, number>();
  tagged.forEach((error, index) => {
    if (error.stage !== undefined) lastOf.set(error.stage, index);
  });
  const result: ThreadErrors = { current: [], superseded: [] };
  tagged.forEach((error, index) => {
    const stage = error.stage === undefined ? undefined : byId.get(error.stage);
    const standing =
      stage === undefined ||
      (lastOf.get(stage.id) === index &&
        stageStatus(values as OverallProposalStateType, stage) === "error");
    (standing ? result.current : result.superseded).push(error);
  });
  return result;
}
