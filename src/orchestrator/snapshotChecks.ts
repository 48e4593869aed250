import type { StateSnapshot } from "@langchain/langgraph";
import { z } from "zod";
import { type DecisionRecord, DecisionRecordSchema } from "../graph/model.js";
import { InterruptIdSchema, readableIssues, ThreadIdSchema } from "../graph/reviewInput.js";
import { settleRunSettings } from "../graph/runSettings.js";
import { runContext, ThreadSettingsSchema } from "../graph/state.js";
import { threadProgress } from "../graph/threadProgress.js";
import {
  type DecisionIssue,
  InvalidDecisionError,
  invalidThreadId,
  OrchestratorError,
  ThreadNotPausedError,
} from "./errors.js";
import type { PendingReview } from "./pendingReview.js";

/** The issues of a standard-schema error (LangGraph's for a resume its schema refuses), leniently. */
const StandardIssuesSchema = z.object({
  issues: z.array(
    z.object({
      path: z.array(z.unknown()).catch([]),
      message: z.string().catch("invalid"),
    }),
  ),
});

/** The issues of a zod error (union failures resolved to the branch meant), or a standard-schema one's. */
export function issuesOf(error: unknown): DecisionIssue[] | undefined {
  const issues =
    error instanceof z.ZodError
      ? readableIssues(error.issues)
      : StandardIssuesSchema.safeParse(error).data?.issues;
  return issues?.map(({ path, message }) => ({
    field: path.length === 0 ? "(decision)" : path.map(String).join("."),
    message,
  }));
}

export function checkedThreadId(threadId: string): string {
  const parsed = ThreadIdSchema.safeParse(threadId);
  if (parsed.success) return parsed.data;
  throw invalidThreadId(String(threadId), parsed.error.issues[0]?.message);
}

export function checkedInterruptId(threadId: string, interruptId: string): string {
  const parsed = InterruptIdSchema.safeParse(interruptId);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? "invalid";
  throw new InvalidDecisionError(threadId, [{ field: "interruptId", message }]);
}

/** Why a thread with no review to answer is not paused at one: another interrupt, done, stopped. */
export function notPausedError(threadId: string, snapshot: StateSnapshot): ThreadNotPausedError {
  const progress = threadProgress(snapshot);
  switch (progress.kind) {
    case "paused":
      return new ThreadNotPausedError(threadId, {
        kind: "other_interrupt",
        interruptIds: progress.interrupts.map((i) => i.id),
      });
    case "finished":
      return new ThreadNotPausedError(threadId, { kind: "completed" });
    case "not_started":
      return new ThreadNotPausedError(threadId, { kind: "stopped", next: [], errors: [] });
    case "work_left":
      return new ThreadNotPausedError(threadId, {
        kind: "stopped",
        next: progress.nodes,
        errors: progress.errors,
      });
  }
}

const HistorySchema = z.array(DecisionRecordSchema);

export function reviewHistoryOf(threadId: string, values: unknown): DecisionRecord[] {
  const history =
    typeof values === "object" && values !== null && "reviewHistory" in values
      ? values.reviewHistory
      : undefined;
  if (history === undefined) return [];
  const parsed = HistorySchema.safeParse(history);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? "" : ` at ${issue.path.map(String).join(".")}`;
    throw new OrchestratorError(
      threadId,
      `reviewHistory is not a list of decision records${where}: ${issue?.message ?? "invalid"}`,
      { code: "THREAD_STATE_INVALID" },
    );
  }
  return parsed.data;
}

/**
 * The run's outcome, unless the review the decision answered asks again: then an
 * InvalidDecisionError naming the field and how to fix it.
 */
export function throwIfRefused<Outcome extends { review?: PendingReview }>(
  threadId: string,
  outcome: Outcome,
  answered: PendingReview,
): Outcome {
  const refusal = outcome.review?.refusal;
  if (refusal === undefined || outcome.review?.contentId !== answered.contentId) return outcome;
  throw new InvalidDecisionError(threadId, [
    { field: refusal.field, message: `${refusal.problem} (${refusal.fix})` },
  ]);
}

/**
 * Refuses (RUN_SETTINGS_CHANGED) a decision to be run with other settings than the thread started
 * with, unless they are overridden: before it is recorded, so the thread stays at the same review.
 */
export function checkRunSettings(
  threadId: string,
  snapshot: StateSnapshot,
  runtime: { context?: unknown; overrideSettings: boolean },
): void {
  const kept = ThreadSettingsSchema.safeParse(
    (snapshot.values as { threadSettings?: unknown }).threadSettings,
  );
  if (!kept.success) return;
  settleRunSettings(kept.data, {
    configurable: { thread_id: threadId, overrideSettings: runtime.overrideSettings },
    context: runContext(runtime),
  });
}
