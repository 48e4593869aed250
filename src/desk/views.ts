/** What the desk shows of a thread: a review opened from its checkpoint, the thread's status. */
import type { StateSnapshot } from "@langchain/langgraph";
import { z } from "zod";
import { editableText } from "../graph/reviewAnswer.js";
import { kindOf, stageContent, stageEvaluation, stageStatus } from "../graph/reviewDecisions.js";
import type { StageDefinition } from "../graph/stages.js";
import type { OverallProposalStateType } from "../graph/state.js";
import { reviewsOf } from "../orchestrator/pendingReview.js";
import { proposalTitle } from "../proposal/title.js";
import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import type { RecordedCorrection } from "../scoring/corrections.js";
import type { DecisionRow, PendingRow, ThreadRow } from "../store/types.js";
import { readUntrustedJson } from "../untrusted/json.js";
import type { DecisionRecord, ReviewDetail, ThreadStatus } from "./answers.js";
import { invalidInput } from "./errors.js";
import type { PageRequest } from "./requests.js";

/** Content as the reviewer reads it: text as it is, anything else as indented JSON. */
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
  snapshot: StateSnapshot,
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
): Promise<{ items: I[]; nextCursor: string | null }> {
  const rows = await read(page.limit + 1, decodeCursor(page.cursor));
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return {
    items: items.map(item),
    nextCursor: rows.length > page.limit && last !== undefined ? encodeCursor(key(last)) : null,
  };
}
