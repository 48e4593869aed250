/**
 * The proposal as a document, built from a thread's state by one function for the command line
 * (`evalgate run`, `evalgate show`), the API and the pages. The body is the proposal a funder
 * reads: the sections of config/proposal.json, in order. The research, the solution sought and the
 * connection pairs are what the sections were written from: appendix A. Appendix B is the gate
 * record: each stage's score and outcome (verdict, funding status, passed), the round its accepted
 * version came from, and who decided what. A thread that has not finished is a draft, listing the
 * stages not yet written or approved. Its title is the proposal's (title.ts), plain text; the RFP's
 * only as the request it responds to.
 */
import { z } from "zod";
import { ACCEPTED_STATUSES, type ProcessingStatus } from "../graph/model.js";
import { stageStatus } from "../graph/reviewNode.js";
import type { StageDefinition } from "../graph/stages.js";
import type { OverallProposalStateType } from "../graph/state.js";
import { parseStatePath, readStatePath } from "../graph/statePath.js";
import { structuredContentOf } from "../graph/structuredContent.js";
import { threadErrors } from "./stageErrors.js";
import { proposalTitle, rfpTitle } from "./title.js";

const StagePartSchema = z.object({
  stage: z.string(),
  title: z.string(),
  status: z.string(),
  /** Approved or edited by a reviewer. */
  accepted: z.boolean(),
});

/** A section of the body: its Markdown text (null when not written yet). */
export const ProposalSectionSchema = StagePartSchema.extend({ text: z.string().nullable() });
export type ProposalSection = z.infer<typeof ProposalSectionSchema>;

/** A structured input (appendix A): its content as the state holds it (null when not written). */
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
  /** How many criteria the reviewer marked as scored wrong. */
  corrections: z.number().int().optional(),
});

/** A stage's gate record (appendix B). */
export const GateRecordSchema = StagePartSchema.extend({
  /** The overall score; null when there is no evaluation, or it judged no criterion. */
  overallScore: z.number().nullable(),
  /** False when the stage's evaluation could judge no criterion (its score says nothing). */
  judged: z.boolean(),
  verdict: z.string().nullable(),
  fundingStatus: z.string().optional(),
  passed: z.boolean().nullable(),
  /** The content was edited after this evaluation: the score is the replaced content's. */
  scoredBeforeEdit: z.boolean(),
  /** The round of writing the current version came from (1 + revisions; 0: nothing written). */
  round: z.number().int().min(0),
  decisions: z.array(GateDecisionSchema),
});
export type GateRecord = z.infer<typeof GateRecordSchema>;

const ThreadErrorSchema = z.object({ stage: z.string().optional(), message: z.string() });

export const ProposalDocumentSchema = z.object({
  threadId: z.string(),
  /** Plain text, from the research: "<Project> — a proposal by <Applicant> to <Funder>". */
  title: z.string(),
  /** The request it answers: the RFP's title as plain text (absent without an RFP). */
  respondsTo: z.string().optional(),
  /** complete: the run finished with every stage approved or edited; otherwise a draft. */
  state: z.enum(["complete", "draft"]),
  sections: z.array(ProposalSectionSchema),
  inputs: z.array(ProposalInputPartSchema),
  gates: z.array(GateRecordSchema),
  /** The stages not yet written or approved, in order (empty when complete). */
  pending: z.array(StagePartSchema),
  errors: z.object({ current: z.array(ThreadErrorSchema), superseded: z.array(ThreadErrorSchema) }),
});
export type ProposalDocument = z.infer<typeof ProposalDocumentSchema>;

export interface ProposalDocumentInput {
  threadId: string;
  /** The title when there is neither research nor an RFP to make one from (the thread's). */
  title?: string;
  values: OverallProposalStateType;
  stages: readonly StageDefinition[];
  /** The run has nothing left to do (threadProgress: finished). */
  finished: boolean;
}

/** What the gate record reads of a stage's evaluation (whatever else a stored result holds). */
const GateFieldsSchema = z.looseObject({
  overallScore: z.number(),
  verdict: z.string(),
  passed: z.boolean(),
  status: z.string().optional(),
  criteria: z.array(z.looseObject({ evaluated: z.boolean() })).optional(),
});

function partOf(values: OverallProposalStateType, stage: StageDefinition) {
  const status: ProcessingStatus = stageStatus(values, stage);
  return { stage: stage.id, title: stage.title, status, accepted: ACCEPTED_STATUSES.has(status) };
}

function contentOf(values: OverallProposalStateType, stage: StageDefinition): unknown {
  return readStatePath(values, parseStatePath(stage.contentPath));
}

function gateOf(values: OverallProposalStateType, stage: StageDefinition): GateRecord {
  const part = partOf(values, stage);
  const parsed = GateFieldsSchema.safeParse(
    readStatePath(values, parseStatePath(stage.resultField)),
  );
  const evaluation = parsed.success ? parsed.data : undefined;
  const decisions = (values.reviewHistory ?? [])
    .filter((d) => d.contentId === stage.id)
    .map((d) => ({
      action: d.action,
      decidedAt: d.decidedAt,
      ...(d.reviewer === undefined ? {} : { reviewer: d.reviewer }),
      ...(d.feedback === undefined ? {} : { feedback: d.feedback }),
      ...(d.comment === undefined ? {} : { comment: d.comment }),
      ...(d.corrections === undefined ? {} : { corrections: d.corrections.length }),
    }));
  const written = contentOf(values, stage) !== undefined;
  const judged =
    evaluation !== undefined && (evaluation.criteria?.some((c) => c.evaluated) ?? true);
  return {
    ...part,
    overallScore: judged ? (evaluation?.overallScore ?? null) : null,
    judged,
    verdict: evaluation?.verdict ?? null,
    ...(evaluation?.status === undefined ? {} : { fundingStatus: evaluation.status }),
    passed: evaluation?.passed ?? null,
    scoredBeforeEdit: evaluation !== undefined && part.status === "edited",
    round: written ? (values.revisionCounts?.[stage.id] ?? 0) + 1 : 0,
    decisions,
  };
}

/** The proposal document of a thread's state (see the module's description). */
export function buildProposalDocument(input: ProposalDocumentInput): ProposalDocument {
  const { values, stages } = input;
  const sections: ProposalSection[] = [];
  const inputs: ProposalInputPart[] = [];
  for (const stage of stages) {
    const content = contentOf(values, stage);
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
