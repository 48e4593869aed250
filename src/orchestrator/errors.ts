import { EvalgateError, errorGuard } from "../errors.js";
import { describeNotPaused, type NotPausedReason } from "./errorText.js";
import { DESK_ERROR_STATUS, type DeskErrorCode } from "./reviewDesk.js";

/** Something the review orchestrator refused or could not do, on one thread. */
export class OrchestratorError extends EvalgateError {
  override readonly name: string = "OrchestratorError";
  readonly threadId: string;

  constructor(threadId: string, message: string, options: { cause?: unknown } = {}) {
    super("ORCHESTRATOR_FAILED", `thread "${threadId}": ${message}`, options);
    this.threadId = threadId;
  }
}

/** The checkpointer holds no state for the thread. */
export class ThreadNotFoundError extends OrchestratorError {
  override readonly name = "ThreadNotFoundError";
  override readonly code = "CHECKPOINT_NOT_FOUND";

  constructor(threadId: string) {
    super(threadId, "no such thread in the checkpointer");
  }
}

/** `start` was given the id of a thread that already has state. */
export class ThreadExistsError extends OrchestratorError {
  override readonly name = "ThreadExistsError";
  override readonly code = "THREAD_EXISTS";

  constructor(threadId: string) {
    super(
      threadId,
      "the thread already exists; resume it with submitDecision or start with another id",
    );
  }
}

/** The thread was made by another graph that shares the checkpointer: this one cannot resume it. */
export class ForeignThreadError extends OrchestratorError {
  override readonly name = "ForeignThreadError";
  override readonly code = "THREAD_FOREIGN";
  /** Channels of the thread's checkpoint this orchestrator's graph does not have. */
  readonly channels: readonly string[];

  constructor(threadId: string, channels: readonly string[]) {
    const shown = channels.slice(0, 5).join(", ");
    const more = channels.length > 5 ? `, … (${channels.length} in all)` : "";
    super(
      threadId,
      `the thread belongs to another graph (its state has ${shown}${more}, which this graph lacks); open it with the graph that started it`,
    );
    this.channels = channels;
  }
}

/** A thread id that cannot name a thread (empty or blank). */
export class InvalidThreadIdError extends OrchestratorError {
  override readonly name = "InvalidThreadIdError";
  override readonly code = "THREAD_ID_INVALID";

  constructor(threadId: string) {
    super(threadId, "a thread id must be a non-empty string");
  }
}

/** A decision was submitted to a thread that is not paused at a review. */
export class ThreadNotPausedError extends OrchestratorError {
  override readonly name = "ThreadNotPausedError";
  override readonly code = "THREAD_NOT_PAUSED";
  readonly reason: NotPausedReason;

  constructor(threadId: string, reason: NotPausedReason) {
    super(threadId, `not paused at a review: ${describeNotPaused(reason)}`);
    this.reason = reason;
  }
}

/** The thread is paused, but at another interrupt than the one the decision was meant for. */
export class InterruptMismatchError extends OrchestratorError {
  override readonly name = "InterruptMismatchError";
  override readonly code = "INTERRUPT_MISMATCH";
  readonly interruptId: string;
  readonly currentInterruptIds: readonly string[];

  constructor(threadId: string, interruptId: string, currentInterruptIds: readonly string[]) {
    super(
      threadId,
      `the decision is for interrupt "${interruptId}", but the thread is paused at ${currentInterruptIds
        .map((id) => `"${id}"`)
        .join(", ")}`,
    );
    this.interruptId = interruptId;
    this.currentInterruptIds = currentInterruptIds;
  }
}

/** One thing wrong with a decision: the field (dotted path, `(decision)` for the whole) and why. */
export interface DecisionIssue {
  field: string;
  message: string;
}

/** The reviewer's decision does not fit ReviewDecisionSchema or the review it answers. */
export class InvalidDecisionError extends OrchestratorError {
  override readonly name = "InvalidDecisionError";
  override readonly code = "DECISION_INVALID";
  readonly issues: readonly DecisionIssue[];

  constructor(threadId: string, issues: readonly DecisionIssue[], options?: { cause?: unknown }) {
    super(
      threadId,
      `invalid review decision: ${issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`,
      options,
    );
    this.issues = issues;
  }
}

/** The graph failed while running the thread (a node threw, or the run stopped unexpectedly). */
export class GraphRunError extends OrchestratorError {
  override readonly name = "GraphRunError";
  override readonly code = "GRAPH_RUN_FAILED";

  constructor(threadId: string, message: string, options?: { cause?: unknown }) {
    super(threadId, message, options);
  }
}

/** The thread's stored state does not have the shape the review fields need. */
export class ThreadStateError extends OrchestratorError {
  override readonly name = "ThreadStateError";
  override readonly code = "THREAD_STATE_INVALID";
}

/** The checkpointer could not be opened: the SQLite file or the PostgreSQL database. */
export class CheckpointerError extends EvalgateError {
  override readonly name = "CheckpointerError";
  /** The SQLite path, or the PostgreSQL URL without its password. */
  readonly location: string;

  constructor(location: string, message: string, options: { cause?: unknown } = {}) {
    super("CHECKPOINTER_UNAVAILABLE", `checkpointer ${location}: ${message}`, options);
    this.location = location;
  }
}

/** What a desk error tells the caller beyond its message (an HTTP body's `details`). */
export type DeskErrorDetails = Readonly<Record<string, unknown>>;

/**
 * A request the review desk refused; its `code` is one of DESK_ERROR_STATUS (reviewDesk.ts),
 * which the service maps to an HTTP status, and `details` says what exactly.
 */
export class DeskError extends EvalgateError {
  override readonly name: string = "DeskError";
  readonly details: DeskErrorDetails;

  constructor(code: DeskErrorCode, message: string, details: DeskErrorDetails = {}) {
    super(code, message);
    this.details = details;
  }
}

/** No token, or a token that is unknown or revoked. */
export class UnauthenticatedError extends DeskError {
  override readonly name = "UnauthenticatedError";
  constructor() {
    super("UNAUTHENTICATED", "a valid reviewer token is needed");
  }
}

/** The reviewer's role does not allow the action (assigning reviewers takes an admin). */
export class ForbiddenError extends DeskError {
  override readonly name = "ForbiddenError";
  constructor(action: string, reviewer: string) {
    super("FORBIDDEN", `${reviewer} may not ${action}: it takes an admin`, { action, reviewer });
  }
}

/** The reviewer is not assigned to the thread. */
export class NotAssignedError extends DeskError {
  override readonly name = "NotAssignedError";
  constructor(threadId: string, reviewer: string) {
    super("NOT_ASSIGNED", `${reviewer} is not assigned to thread ${threadId}`, {
      threadId,
      reviewer,
    });
  }
}

/** No thread of that id in the review store. */
export class UnknownThreadError extends DeskError {
  override readonly name = "UnknownThreadError";
  constructor(threadId: string) {
    super("THREAD_NOT_FOUND", `no thread ${threadId}`, { threadId });
  }
}

/** A request the desk cannot take as given: the field and why. */
export class InvalidInputError extends DeskError {
  override readonly name = "InvalidInputError";
  constructor(field: string, message: string) {
    super("INVALID_INPUT", `${field}: ${message}`, { field });
  }
}

/** The thread does not wait for a decision on that interrupt. */
export class ReviewNotPendingError extends DeskError {
  override readonly name = "ReviewNotPendingError";
  constructor(threadId: string, interruptId: string, pending: readonly string[]) {
    const now =
      pending.length === 0
        ? "it waits for no review now"
        : `it waits for ${pending.map((id) => `"${id}"`).join(", ")}`;
    super(
      "REVIEW_NOT_PENDING",
      `thread ${threadId} is not waiting for a decision on "${interruptId}": ${now}`,
      { threadId, interruptId, pending: [...pending] },
    );
  }
}

/** Someone decided this review already: who, when, what. */
export class AlreadyDecidedError extends DeskError {
  override readonly name = "AlreadyDecidedError";
  constructor(
    threadId: string,
    interruptId: string,
    decided: { by: string; at: string; action: string; decisionId: string },
  ) {
    super(
      "ALREADY_DECIDED",
      `the review was decided already: ${decided.action} by ${decided.by} at ${decided.at}`,
      { threadId, interruptId, ...decided },
    );
  }
}

/** The review does not offer that action (revise at the revision limit, retry on a review). */
export class ActionNotOfferedError extends DeskError {
  override readonly name = "ActionNotOfferedError";
  constructor(action: string, offered: readonly string[]) {
    super("ACTION_NOT_OFFERED", `this review takes ${offered.join(", ")} — not ${action}`, {
      action,
      offered: [...offered],
    });
  }
}

/** Retry asked of a thread that has not failed. */
export class ThreadNotFailedError extends DeskError {
  override readonly name = "ThreadNotFailedError";
  constructor(threadId: string, status: string) {
    super("THREAD_NOT_FAILED", `thread ${threadId} is ${status}, not failed`, { threadId, status });
  }
}

/** The codes of the review orchestrator's thread errors, one per class. */
export const ORCHESTRATOR_ERROR_CODES = [
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

/** The code of a checkpointer that cannot be opened (CheckpointerError is no OrchestratorError). */
export const CHECKPOINTER_ERROR_CODES = ["CHECKPOINTER_UNAVAILABLE"] as const;

/** The codes of the review desk's errors, one per class (DESK_ERROR_STATUS gives their status). */
export const DESK_ERROR_CODES = Object.keys(DESK_ERROR_STATUS) as readonly DeskErrorCode[];

export const isOrchestratorError = errorGuard<OrchestratorError>(...ORCHESTRATOR_ERROR_CODES);
export const isThreadNotFoundError = errorGuard<ThreadNotFoundError>("CHECKPOINT_NOT_FOUND");
export const isThreadExistsError = errorGuard<ThreadExistsError>("THREAD_EXISTS");
export const isForeignThreadError = errorGuard<ForeignThreadError>("THREAD_FOREIGN");
export const isInvalidThreadIdError = errorGuard<InvalidThreadIdError>("THREAD_ID_INVALID");
export const isThreadNotPausedError = errorGuard<ThreadNotPausedError>("THREAD_NOT_PAUSED");
export const isInterruptMismatchError = errorGuard<InterruptMismatchError>("INTERRUPT_MISMATCH");
export const isInvalidDecisionError = errorGuard<InvalidDecisionError>("DECISION_INVALID");
export const isGraphRunError = errorGuard<GraphRunError>("GRAPH_RUN_FAILED");
export const isThreadStateError = errorGuard<ThreadStateError>("THREAD_STATE_INVALID");
export const isCheckpointerError = errorGuard<CheckpointerError>("CHECKPOINTER_UNAVAILABLE");
export const isDeskError = errorGuard<DeskError>(...DESK_ERROR_CODES);
export const isUnauthenticatedError = errorGuard<UnauthenticatedError>("UNAUTHENTICATED");
export const isForbiddenError = errorGuard<ForbiddenError>("FORBIDDEN");
export const isNotAssignedError = errorGuard<NotAssignedError>("NOT_ASSIGNED");
export const isUnknownThreadError = errorGuard<UnknownThreadError>("THREAD_NOT_FOUND");
export const isInvalidInputError = errorGuard<InvalidInputError>("INVALID_INPUT");
export const isReviewNotPendingError = errorGuard<ReviewNotPendingError>("REVIEW_NOT_PENDING");
export const isAlreadyDecidedError = errorGuard<AlreadyDecidedError>("ALREADY_DECIDED");
export const isActionNotOfferedError = errorGuard<ActionNotOfferedError>("ACTION_NOT_OFFERED");
export const isThreadNotFailedError = errorGuard<ThreadNotFailedError>("THREAD_NOT_FAILED");
