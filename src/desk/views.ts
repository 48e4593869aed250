/** What the desk shows of a thread: a review opened from its checkpoint, the thread's status. */
import type { StateSnapshot } from "@langchain/langgraph";
import { stageStatus } from "../graph/reviewNode.js";
import type { StageDefinition } from "../graph/stages.js";
import type { OverallProposalStateType } from "../graph/state.js";
import { parseStatePath, readStatePath } from "../graph/statePath.js";
import { reviewsOf } from "../orchestrator/pendingReview.js";
import { proposalTitle } from "../proposal/title.js";
import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import type { RecordedCorrection } from "../scoring/corrections.js";
import type { EvaluationResult } from "../scoring/result.js";
import type { DecisionRow, PendingRow, ThreadRow } from "../store/types.js";
import type { DecisionRecord, ReviewDetail, ReviewListItem, ThreadStatus } from "./answers.js";
import { alreadyDecided as alreadyDecidedError, invalidInput } from "./errors.js";

/** Content as the reviewer reads it: text as it is, anything else as indented JSON. */
export function contentAsText(content: unknown): string {
  if (content === undefined || content === null) return "";
  return typeof content === "string" ? content : JSON.stringify(content, null, 2);
}

function kindOfContent(content: unknown): ReviewDetail["contentKind"] {
  if (Array.isArray(content)) return "list";
  return typeof content === "object" && content !== null ? "object" : "text";
}

export function reviewDetailOf(
  row: PendingRow,
  snapshot: StateSnapshot,
  stages: readonly StageDefinition[],
): ReviewDetail | undefined {
  const review = reviewsOf(row.threadId, snapshot).find((r) => r.interruptId === row.interruptId);
  if (review === undefined) return undefined;
  const stage = stages.find((s) => s.id === review.contentId);
  const values = snapshot.values as OverallProposalStateType;
  const content =
    stage === undefined ? undefined : readStatePath(values, parseStatePath(stage.contentPath));
  const detail: ReviewDetail = {
    threadId: row.threadId,
    interruptId: row.interruptId,
    stage: review.contentId,
    title: row.title,
    type: review.type,
    content: contentAsText(content),
    contentKind: stage?.contentKind ?? kindOfContent(content),
    evaluation: review.evaluation,
    actions: review.actions,
    createdAt: row.createdAt,
  };
  if (review.error !== undefined) detail.error = review.error;
  if (review.revisions !== undefined) detail.revisions = review.revisions;
  if (review.round !== undefined) detail.round = review.round;
  return detail;
}

/** The corrections among a decision's labels (the criteria the reviewer marked wrong). */
function correctionsOf(labels: readonly CalibrationLabel[]): RecordedCorrection[] {
  return labels.flatMap((label) => {
    if (label.source !== "marked" || label.reviewerScore === undefined) return [];
    const correction: RecordedCorrection = {
      criterionId: label.criterionId,
      criterionTitle: label.criterionTitle,
      judgeScore: label.judgeScore,
      reviewerScore: label.reviewerScore,
    };
    if (label.judgeNative !== undefined) correction.judgeNative = label.judgeNative;
    if (label.reviewerNative !== undefined) correction.reviewerNative = label.reviewerNative;
    if (label.reviewerNote !== undefined) correction.note = label.reviewerNote;
    return [correction];
  });
}

export function decisionRecordOf(
  row: DecisionRow,
  labels: readonly CalibrationLabel[] = [],
): DecisionRecord {
  const record: DecisionRecord = {
    decisionId: row.id,
    interruptId: row.interruptId,
    stage: row.stage,
    reviewer: row.reviewer,
    action: row.action,
    decidedAt: row.decidedAt,
  };
  if (row.payload.feedback !== undefined) record.feedback = row.payload.feedback;
  if (row.payload.comment !== undefined) record.comment = row.payload.comment;
  if (row.action === "edit" && row.payload.content !== undefined) {
    record.content = row.payload.content;
  }
  if (row.appliedAt !== null) record.appliedAt = row.appliedAt;
  if (row.refusedAt !== null) record.refusedAt = row.refusedAt;
  const corrections = correctionsOf(labels.filter((l) => l.decisionId === row.id));
  if (corrections.length > 0) record.corrections = corrections;
  return record;
}

export function threadStatusOf(
  thread: ThreadRow,
  values: OverallProposalStateType | undefined,
  stages: readonly StageDefinition[],
  reviewers: string[],
  decisions: DecisionRow[],
  labels: readonly CalibrationLabel[] = [],
): ThreadStatus {
  const status: ThreadStatus = {
    threadId: thread.id,
    title: values === undefined ? thread.title : proposalTitle(values, thread.title),
    status: thread.status,
    stages: stages.map((stage) => {
      const evaluation =
        values === undefined
          ? undefined
          : (readStatePath(values, parseStatePath(stage.resultField)) as
              | EvaluationResult
              | null
              | undefined);
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
  };
  if (thread.error !== null) status.error = thread.error;
  return status;
}

export function listItemOf(row: PendingRow): ReviewListItem {
  return {
    threadId: row.threadId,
    interruptId: row.interruptId,
    stage: row.stage,
    title: row.title,
    overallScore: row.overallScore,
    passed: row.passed,
    createdAt: row.createdAt,
  };
}

/** An opaque keyset cursor: where the last row of a page sits, as two strings. */
function encodeCursor(key: readonly [string, string]): string {
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

/** The key a cursor this desk gave out holds (INVALID_INPUT for anything else). */
export function decodeCursor(cursor: string | undefined): [string, string] | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string"
    ) {
      return [value[0], value[1]];
    }
  } catch {
    // reported below
  }
  throw invalidInput("cursor", "not a cursor this service gave out");
}

/** A keyset page of `rows` (one more than `limit` read, to know whether another page follows). */
export function pageOf<R, I>(
  rows: readonly R[],
  limit: number,
  item: (row: R) => I,
  key: (row: R) => [string, string],
): { items: I[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(item),
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(key(last)) : null,
  };
}

/** The 409 for a review someone decided already: who, when, what. */
export function alreadyDecided(decision: {
  threadId: string;
  interruptId: string;
  reviewer: string;
  decidedAt: string;
  action: string;
  id: string;
}) {
  return alreadyDecidedError(decision.threadId, decision.interruptId, {
    by: decision.reviewer,
    at: decision.decidedAt,
    action: decision.action,
    decisionId: decision.id,
  });
}
