/** The orchestrator's errors, and the checks of ids, decisions and snapshots that raise them. */
import type { StateSnapshot } from "@langchain/langgraph";
import { z } from "zod";
import { EvalgateError, errorGuard } from "../errors.js";
import { type DecisionRecord, DecisionRecordSchema } from "../graph/model.js";
import {
  InterruptIdSchema,
  quotedId,
  readableIssues,
  ThreadIdSchema,
} from "../graph/reviewInput.js";
import { describeProgress, threadProgress } from "../graph/threadProgress.js";
import type { PendingReview } from "./pendingReview.js";

export type NotPausedReason =
  | { kind: "completed" }
  | { kind: "stopped"; next: readonly string[]; errors: readonly string[] }
  | { kind: "other_interrupt"; interruptIds: readonly string[] };

const ORCHESTRATOR_ERROR_CODES = [
  "ORCHESTRATOR_FAILED",
  "CHECKPOINT_NOT_FOUND",
  "THREAD_EXISTS",
  "THREAD_FOREIGN",
  "THREAD_ID_INVALID",
  "THREAD_NOT_PAUSED",
  "INTERRUPT_MISMATCH",
  "DECISION_INVALID",
  "GRAPH_RUN_FAILED",
  "THREAD_STATE_INVALID",
] as const;
export type OrchestratorErrorCode = (typeof ORCHESTRATOR_ERROR_CODES)[number];

/** Something the review orchestrator refused or could not do, on one thread; `code` says what. */
export class OrchestratorError extends EvalgateError<OrchestratorErrorCode> {
  readonly threadId: string;

  constructor(
    threadId: string,
    message: string,
    options: { cause?: unknown; code?: OrchestratorErrorCode } = {},
  ) {
    const code = options.code ?? "ORCHESTRATOR_FAILED";
    // The id as given, quoted and escaped, cut to 64 characters: a message is one line.
    super(code, `thread ${quotedId(threadId)}: ${message}`, options);
    this.threadId = threadId;
  }
}

export function threadNotFound(threadId: string): OrchestratorError {
  return new OrchestratorError(threadId, "no such thread in the checkpointer", {
    code: "CHECKPOINT_NOT_FOUND",
  });
}

export function threadExists(threadId: string): OrchestratorError {
  return new OrchestratorError(
    threadId,
    "the thread already exists; resume it with submitDecision or start with another id",
    { code: "THREAD_EXISTS" },
  );
}

/** The thread was made by another graph that shares the checkpointer: this one cannot resume it. */
export class ForeignThreadError extends OrchestratorError {
  readonly channels: readonly string[];

  constructor(threadId: string, channels: readonly string[]) {
    const shown = channels.slice(0, 5).join(", ");
    const more = channels.length > 5 ? `, … (${channels.length} in all)` : "";
    super(
      threadId,
      `the thread belongs to another graph (its state has ${shown}${more}, which this graph lacks); open it with the graph that started it`,
      { code: "THREAD_FOREIGN" },
    );
    this.channels = channels;
  }
}

/** A decision was submitted to a thread that is not paused at a review. */
export class ThreadNotPausedError extends OrchestratorError {
  readonly reason: NotPausedReason;

  constructor(threadId: string, reason: NotPausedReason) {
    super(threadId, `not paused at a review: ${describeNotPaused(reason)}`, {
      code: "THREAD_NOT_PAUSED",
    });
    this.reason = reason;
  }
}

function describeNotPaused(reason: NotPausedReason): string {
  if (reason.kind === "completed") return "the run has completed";
  if (reason.kind === "other_interrupt") {
    return `it is paused at an interrupt that is not a review (${reason.interruptIds.join(", ")})`;
  }
  if (reason.next.length === 0) return "the run stopped before its first checkpoint";
  return describeProgress({
    kind: "work_left",
    nodes: [...reason.next],
    errors: [...reason.errors],
  });
}

/** Why a thread with no review to answer is not paused at one: another interrupt, done, stopped. */
export function notPausedError(threadId: string, snapshot: StateSnapshot): ThreadNotPausedError {
  const progress = threadProgress(snapshot);
  const reason: NotPausedReason =
    progress.kind === "paused"
      ? { kind: "other_interrupt", interruptIds: progress.interrupts.map((i) => i.id) }
      : progress.kind === "finished"
        ? { kind: "completed" }
        : progress.kind === "work_left"
          ? { kind: "stopped", next: progress.nodes, errors: progress.errors }
          : { kind: "stopped", next: [], errors: [] };
  return new ThreadNotPausedError(threadId, reason);
}

/** The thread is paused, but at another interrupt than the one the decision was meant for. */
export class InterruptMismatchError extends OrchestratorError {
  readonly interruptId: string;
  readonly currentInterruptIds: readonly string[];

  constructor(threadId: string, interruptId: string, currentInterruptIds: readonly string[]) {
    super(
      threadId,
      `the decision is for interrupt ${quotedId(interruptId)}, but the thread is paused at ${currentInterruptIds
        .map((id) => quotedId(id))
        .join(", ")}`,
      { code: "INTERRUPT_MISMATCH" },
    );
    this.interruptId = interruptId;
    this.currentInterruptIds = currentInterruptIds;
  }
}

export interface DecisionIssue {
  field: string;
  message: string;
}

/** The reviewer's decision does not fit ReviewDecisionSchema or the review it answers. */
export class InvalidDecisionError extends OrchestratorError {
  readonly issues: readonly DecisionIssue[];

  constructor(threadId: string, issues: readonly DecisionIssue[], options?: { cause?: unknown }) {
    super(
      threadId,
      `invalid review decision: ${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`,
      { ...options, code: "DECISION_INVALID" },
    );
    this.issues = issues;
  }
}

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

export function invalidThreadId(threadId: string, reason = "is empty"): OrchestratorError {
  return new OrchestratorError(threadId, `not a thread id: it ${reason}`, {
    code: "THREAD_ID_INVALID",
  });
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

export function reviewHistoryOf(threadId: string, values: unknown): DecisionRecord[] {
  const history = (values as { reviewHistory?: unknown } | null)?.reviewHistory;
  if (history === undefined) return [];
  const parsed = z.array(DecisionRecordSchema).safeParse(history);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined ? "" : ` at ${issue.path.map(String).join(".")}`;
  throw new OrchestratorError(
    threadId,
    `reviewHistory is not a list of decision records${where}: ${issue?.message ?? "invalid"}`,
    { code: "THREAD_STATE_INVALID" },
  );
}

/** The run's outcome, unless the review the decision answered asks again: InvalidDecisionError. */
export function throwIfRefused(
  threadId: string,
  outcome: { review?: PendingReview },
  answered: PendingReview,
): void {
  const refusal = outcome.review?.refusal;
  if (refusal === undefined || outcome.review?.contentId !== answered.contentId) return;
  throw new InvalidDecisionError(threadId, [
    { field: refusal.field, message: `${refusal.problem} (${refusal.fix})` },
  ]);
}

/** The checkpointer could not be opened: the SQLite file or the PostgreSQL database. */
export class CheckpointerError extends EvalgateError {
  readonly location: string;

  constructor(location: string, message: string, options: { cause?: unknown } = {}) {
    super("CHECKPOINTER_UNAVAILABLE", `checkpointer ${location}: ${message}`, options);
    this.location = location;
  }
}

export const isOrchestratorError = errorGuard<OrchestratorError>(...ORCHESTRATOR_ERROR_CODES);
export const isThreadNotFoundError = errorGuard<OrchestratorError>("CHECKPOINT_NOT_FOUND");
