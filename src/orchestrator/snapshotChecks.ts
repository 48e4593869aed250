/** What the orchestrator reads out of errors and snapshots to say why a decision cannot go on. */
import type { StateSnapshot } from "@langchain/langgraph";
import { z } from "zod";
import { type DecisionRecord, DecisionRecordSchema } from "../graph/model.js";
import { type DecisionIssue, ThreadNotPausedError, ThreadStateError } from "./errors.js";
import { pausedInterrupts } from "./pendingReview.js";

export /** The issues of a zod error (ours, or the one LangGraph throws for an invalid resume value). */
function issuesOf(error: unknown): DecisionIssue[] | undefined {
  if (typeof error !== "object" || error === null || !("issues" in error)) return undefined;
  if (!Array.isArray(error.issues)) return undefined;
  return error.issues.map((issue: unknown) => {
    const path =
      typeof issue === "object" && issue !== null && "path" in issue && Array.isArray(issue.path)
        ? issue.path.map(String)
        : [];
    const message =
      typeof issue === "object" &&
      issue !== null &&
      "message" in issue &&
      typeof issue.message === "string"
        ? issue.message
        : "invalid";
    return { field: path.length === 0 ? "(decision)" : path.join("."), message };
  });
}

export function errorsOf(snapshot: StateSnapshot): string[] {
  return snapshot.tasks.flatMap((task) => {
    const error: unknown = task.error;
    if (error === undefined || error === null) return [];
    if (error instanceof Error) return [`${task.name}: ${error.message}`];
    if (typeof error === "object" && "message" in error && typeof error.message === "string") {
      return [`${task.name}: ${error.message}`];
    }
    return [`${task.name}: ${String(error)}`];
  });
}

/** Why a thread with no review to answer is not paused at one: another interrupt, done, stopped. */
export function notPausedError(threadId: string, snapshot: StateSnapshot): ThreadNotPausedError {
  const interrupts = pausedInterrupts(snapshot).map((i) => i.id);
  if (interrupts.length > 0) {
    return new ThreadNotPausedError(threadId, {
      kind: "other_interrupt",
      interruptIds: interrupts,
    });
  }
  if (snapshot.next.length === 0) return new ThreadNotPausedError(threadId, { kind: "completed" });
  return new ThreadNotPausedError(threadId, {
    kind: "stopped",
    next: snapshot.next,
    errors: errorsOf(snapshot),
  });
}

const HistorySchema = z.array(DecisionRecordSchema);

/** The reviewer decisions kept in a thread's state (`reviewHistory`), checked. */
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
    throw new ThreadStateError(
      threadId,
      `reviewHistory is not a list of decision records${where}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}
