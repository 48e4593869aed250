/**
 * What the review desk answers, read from the store's rows and the checkpoints: the queue, a review
 * opened from its checkpoint, the thread's status, keyset pages.
 */
import type { StateSnapshot } from "@langchain/langgraph";
import { z } from "zod";
import { RevisionRoundSchema } from "../graph/model.js";
import { editableText } from "../graph/reviewAnswer.js";
import { kindOf, stageContent, stageEvaluation, stageStatus } from "../graph/reviewDecisions.js";
import type { StageDefinition } from "../graph/stages.js";
import type { OverallProposalStateType } from "../graph/state.js";
import { reviewsOf } from "../orchestrator/pendingReview.js";
import { proposalTitle } from "../proposal/title.js";
import { type CalibrationLabel, REVIEW_ACTIONS } from "../scoring/calibrationLabel.js";
import { type RecordedCorrection, RecordedCorrectionSchema } from "../scoring/corrections.js";
import { EvaluationResultSchema, TraceSchema } from "../scoring/result.js";
import {
  type DecisionRow,
  type PendingRow,
  PendingRowSchema,
  type ThreadRow,
  ThreadStateSchema,
} from "../store/types.js";
import { readUntrustedJson } from "../untrusted/json.js";
import { invalidInput } from "./errors.js";
import type { PageRequest } from "./requests.js";

/** One row of the queue, read from the pending-review index (never from checkpoints). */
export const ReviewListItemSchema = PendingRowSchema.pick({
  threadId: true,
  interruptId: true,
  stage: true,
  title: true,
  overallScore: true,
  passed: true,
  createdAt: true,
});
export type ReviewListItem = z.infer<typeof ReviewListItemSchema>;

/** A keyset page: its items, and the cursor of the next page (null on the last). */
interface Page<I> {
  items: I[];
  nextCursor: string | null;
}
export type ReviewPage = Page<ReviewListItem>;

/** One finished proposal of a list, read from the store's thread rows (never from checkpoints). */
export type ThreadListPage = Page<{
  threadId: string;
  title: string;
  startedAt: string;
  finishedAt: string;
}>;

const ReviewDetailSchema = z.object({
  threadId: z.string(),
  interruptId: z.string(),
  stage: z.string(),
  title: z.string(),
  type: z.string(),
  /** The content: text as it is; structured content (an object, a list) as indented JSON. */
  content: z.string(),
  contentKind: z.enum(["text", "object", "list"]),
  evaluation: EvaluationResultSchema.nullable(),
  actions: z.array(z.enum(REVIEW_ACTIONS)),
  error: z.string().optional(),
  revisions: z.object({ count: z.number(), max: z.number() }).optional(),
  round: RevisionRoundSchema.optional(),
  createdAt: z.string(),
});
export type ReviewDetail = z.infer<typeof ReviewDetailSchema>;

export const DecisionRecordSchema = z.object({
  decisionId: z.string(),
  interruptId: z.string(),
  stage: z.string(),
  reviewer: z.string(),
  action: z.enum(REVIEW_ACTIONS),
  feedback: z.string().optional(),
  comment: z.string().optional(),
  /** With edit: the text the reviewer put in place of the content. */
  content: z.string().optional(),
  decidedAt: z.string(),
  /** Absent while it waits for the job. */
  appliedAt: z.string().optional(),
  /** When the graph refused it (the thread failed; retrying the thread sets it aside). */
  refusedAt: z.string().optional(),
  corrections: z.array(RecordedCorrectionSchema).optional(),
});
export type DecisionRecord = z.infer<typeof DecisionRecordSchema>;

export const ThreadStatusSchema = z.object({
  threadId: z.string(),
  title: z.string(),
  status: ThreadStateSchema,
  stages: z.array(
    z.object({
      stage: z.string(),
      status: z.string(),
      overallScore: z.number().nullable(),
      passed: z.boolean().nullable(),
      evaluationId: z.string().optional(),
    }),
  ),
  reviewers: z.array(z.string()),
  decisions: z.array(DecisionRecordSchema),
  error: z.string().optional(),
});
export type ThreadStatus = z.infer<typeof ThreadStatusSchema>;

/** `GET /api/threads/:threadId/traces`: every judge call of the thread, per evaluation. */
const ThreadTracesSchema = z.object({
  threadId: z.string(),
  evaluations: z.array(z.object({ evaluationId: z.string(), traces: z.array(TraceSchema) })),
});
export type ThreadTraces = z.infer<typeof ThreadTracesSchema>;

/** The review the checkpoint holds for a pending row, its stage, and the stage's content now. */
export function openReview(
  row: Pick<PendingRow, "threadId" | "interruptId" | "stage">,
  snapshot: StateSnapshot | undefined,
  stages: readonly StageDefinition[],
) {
  const stage = stages.find((s) => s.id === row.stage);
  if (snapshot === undefined) return { stage, review: undefined, content: undefined };
  const review = reviewsOf(row.threadId, snapshot).find((r) => r.interruptId === row.interruptId);
  const content = stage === undefined ? undefined : stageContent(snapshot.values, stage);
  return { stage, review, content };
}

export function reviewDetailOf(
  row: PendingRow,
  snapshot: StateSnapshot | undefined,
  stages: readonly StageDefinition[],
): ReviewDetail | undefined {
  const { review, stage, content } = openReview(row, snapshot, stages);
  if (review === undefined) return undefined;
  // Absent fields are undefined here and left out of the JSON the API sends.
  return {
    threadId: row.threadId,
    interruptId: row.interruptId,
    stage: row.stage,
    title: row.title,
    type: review.type,
    content: editableText(content),
    contentKind: stage?.contentKind ?? kindOf(content),
    evaluation: review.evaluation,
    actions: review.actions,
    createdAt: row.createdAt,
    error: review.error,
    revisions: review.revisions,
    round: review.round,
  };
}

/** The corrections among a decision's labels (the criteria the reviewer marked wrong). */
function correctionsOf(labels: readonly CalibrationLabel[]): RecordedCorrection[] {
  return labels.flatMap((label) =>
    label.source !== "marked" || label.reviewerScore === undefined
      ? []
      : [
          {
            criterionId: label.criterionId,
            criterionTitle: label.criterionTitle,
            judgeScore: label.judgeScore,
            reviewerScore: label.reviewerScore,
            judgeNative: label.judgeNative,
            reviewerNative: label.reviewerNative,
            note: label.reviewerNote,
          },
        ],
  );
}

function decisionRecordOf(row: DecisionRow, labels: readonly CalibrationLabel[]): DecisionRecord {
  const corrections = correctionsOf(labels.filter((l) => l.decisionId === row.id));
  return {
    decisionId: row.id,
    interruptId: row.interruptId,
    stage: row.stage,
    reviewer: row.reviewer,
    action: row.action,
    decidedAt: row.decidedAt,
    feedback: row.payload.feedback,
    comment: row.payload.comment,
    content: row.action === "edit" ? row.payload.content : undefined,
    appliedAt: row.appliedAt ?? undefined,
    refusedAt: row.refusedAt ?? undefined,
    corrections: corrections.length > 0 ? corrections : undefined,
  };
}

export function threadStatusOf(
  thread: ThreadRow,
  values: OverallProposalStateType | undefined,
  stages: readonly StageDefinition[],
  reviewers: string[],
  decisions: DecisionRow[],
  labels: readonly CalibrationLabel[] = [],
): ThreadStatus {
  return {
    threadId: thread.id,
    title: values === undefined ? thread.title : proposalTitle(values, thread.title),
    status: thread.status,
    stages: stages.map((stage) => {
      const evaluation = values === undefined ? null : stageEvaluation(values, stage);
      return {
        stage: stage.id,
        status: values === undefined ? "not_started" : stageStatus(values, stage),
        overallScore: evaluation?.overallScore ?? null,
        passed: evaluation?.passed ?? null,
        ...(evaluation?.evaluationId === undefined
          ? {}
          : { evaluationId: evaluation.evaluationId }),
      };
    }),
    reviewers,
    decisions: decisions.map((d) => decisionRecordOf(d, labels)),
    error: thread.error ?? undefined,
  };
}

/** An opaque keyset cursor: where the last row of a page sits, as two strings. */
function encodeCursor(key: readonly [string, string]): string {
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

/** The key a cursor this desk gave out holds (INVALID_INPUT for anything else). */
function decodeCursor(cursor: string | undefined): [string, string] | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  const read = readUntrustedJson(Buffer.from(cursor, "base64url").toString("utf8"));
  const key = z.tuple([z.string(), z.string()]).safeParse(read.ok ? read.value : undefined);
  if (key.success) return key.data;
  throw invalidInput("cursor", "not a cursor this service gave out");
}

/** A keyset page: `read` gets one row more than the limit, to know whether another page follows. */
export async function keysetPage<R, I>(
  page: PageRequest,
  read: (limit: number, after: [string, string] | undefined) => Promise<readonly R[]>,
  item: (row: R) => I,
  key: (row: R) => [string, string],
): Promise<Page<I>> {
  const rows = await read(page.limit + 1, decodeCursor(page.cursor));
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return {
    items: items.map(item),
    nextCursor: rows.length > page.limit && last !== undefined ? encodeCursor(key(last)) : null,
  };
}
