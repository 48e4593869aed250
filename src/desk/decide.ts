/** A decision checked against the review it answers, recorded with its labels, handed to a job. */
import { randomUUID } from "node:crypto";
import { labelsOfDecision } from "../calibration/labels.js";
import { ReviewDecisionSchema } from "../graph/model.js";
import { editContentIssue } from "../graph/reviewInput.js";
import type { StageDefinition } from "../graph/stages.js";
import { structuredContentOf } from "../graph/structuredContent.js";
import type { PendingReview } from "../orchestrator/pendingReview.js";
import { checkedCorrections } from "../scoring/corrections.js";
import type { Reviewer } from "../store/reviewers.js";
import type { DecisionRow } from "../store/types.js";
import { accessThread, type DeskContext, enqueueThread, snapshotOf } from "./actions.js";
import { openReview } from "./answers.js";
import { actionNotOffered, alreadyDecided, invalidInput, reviewNotPending } from "./errors.js";
import type { DecisionRequest } from "./requests.js";

/** The review boundary's schema, and an edit against the shape of the stage it replaces. */
function parsedDecision(
  request: DecisionRequest,
  by: Reviewer,
  stage: StageDefinition | undefined,
  current: unknown,
) {
  const { interruptId: _id, content, ...decision } = request;
  const fields = content !== undefined && typeof content !== "string";
  if (fields && stage !== undefined && structuredContentOf(stage) === undefined) {
    throw invalidInput("content", `the ${stage.title} takes text, not JSON fields`);
  }
  // Structured content sent as its JSON object or list is read as its JSON text.
  const edited =
    content === undefined ? {} : { content: fields ? JSON.stringify(content) : content };
  const parsed = ReviewDecisionSchema.safeParse({ ...decision, ...edited, reviewer: by.name });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidInput(issue?.path.map(String).join(".") || "action", issue?.message ?? "invalid");
  }
  const unfit =
    parsed.data.action === "edit" && stage !== undefined
      ? editContentIssue(stage, parsed.data.content, current)
      : undefined;
  if (unfit !== undefined) throw invalidInput("content", unfit);
  const { action, reviewer: _who, ...payload } = parsed.data;
  return { action, payload };
}

function decidedBefore(row: DecisionRow) {
  const { reviewer: by, decidedAt: at, action, id: decisionId } = row;
  return alreadyDecided(row.threadId, row.interruptId, { by, at, action, decisionId });
}

async function notPending(ctx: DeskContext, threadId: string, interruptId: string) {
  const now = await ctx.store.pendingOf(threadId);
  return reviewNotPending(
    threadId,
    interruptId,
    now.map((p) => p.interruptId),
  );
}

function correctionsFor(review: PendingReview | undefined, request: DecisionRequest) {
  const given = request.corrections ?? [];
  if (given.length > 0 && request.action === "retry") {
    throw invalidInput(
      "corrections",
      "a retry judges again: correct scores with approve, revise or edit",
    );
  }
  const checked = checkedCorrections(review?.evaluation ?? null, given);
  if ("issue" in checked) throw invalidInput(checked.issue.field, checked.issue.message);
  return checked.corrections;
}

export async function decide(
  ctx: DeskContext,
  threadId: string,
  request: DecisionRequest,
  by: Reviewer,
): Promise<{ decisionId: string }> {
  await accessThread(ctx, threadId, by);
  const pending = await ctx.store.pendingOf(threadId);
  const row = pending.find((p) => p.interruptId === request.interruptId);
  if (row === undefined) {
    const earlier = await ctx.store.decisionFor(threadId, request.interruptId);
    if (earlier !== undefined) throw decidedBefore(earlier);
    throw await notPending(ctx, threadId, request.interruptId);
  }
  if (!row.actions.includes(request.action)) throw actionNotOffered(request.action, row.actions);
  // The evaluation the reviewer saw, and the stage's content now (what an edit applies to).
  const snapshot = await snapshotOf(ctx, threadId);
  const { review, stage, content } = openReview(row, snapshot, ctx.runtime.stages);
  const { action, payload } = parsedDecision(request, by, stage, content);
  const corrections = correctionsFor(review, request);
  const decision = {
    id: randomUUID(),
    threadId,
    interruptId: request.interruptId,
    stage: row.stage,
    reviewer: by.name,
    action,
    payload,
    decidedAt: new Date().toISOString(),
  };
  const labelled = {
    ...{ decisionId: decision.id, threadId, stage: row.stage, reviewer: by.name, action },
    contentType: review?.contentType ?? row.stage,
    decidedAt: decision.decidedAt,
    ...("feedback" in payload ? { feedback: payload.feedback } : {}),
  };
  const labels = labelsOfDecision(labelled, review?.evaluation ?? null, corrections);
  const result = await ctx.store.recordDecision(decision, labels);
  if (result.kind === "already_decided") throw decidedBefore(result.decision);
  if (result.kind === "not_pending") throw await notPending(ctx, threadId, request.interruptId);
  // Durable from here: if the enqueue is lost with this process, recovery finds the decision.
  await enqueueThread(ctx, threadId);
  return { decisionId: result.decision.id };
}
