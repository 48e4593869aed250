import { EvalgateError } from "../errors.js";
import type { DeskErrorCode } from "./reviewDesk.js";

/** Something the review orchestrator refused or could not do, on one thread. */
export class OrchestratorError extends Error {
  override readonly name: string = "OrchestratorError";
  readonly threadId: string;

  constructor(threadId: string, message: string, options?: { cause?: unknown }) {
    super(`thread "${threadId}": ${message}`, options);
    this.threadId = threadId;
  }
}

/** The checkpointer holds no state for the thread. */
export class ThreadNotFoundError extends OrchestratorError {
  override readonly name = "ThreadNotFoundError";

  constructor(threadId: string) {
    super(threadId, "no such thread in the checkpointer");
  }
}

/** `start` was given the id of a thread that already has state. */
export class ThreadExistsError extends OrchestratorError {
  override readonly name = "ThreadExistsError";

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

  constructor(threadId: string) {
    super(threadId, "a thread id must be a non-empty string");
  }
}

/** Why a thread is not waiting for a reviewer. */
export type NotPausedReason =
  | { kind: "completed" }
  | { kind: "stopped"; next: readonly string[]; errors: readonly string[] }
  | { kind: "other_interrupt"; interruptIds: readonly string[] };

function describeNotPaused(reason: NotPausedReason): string {
  switch (reason.kind) {
    case "completed":
      return "the run has completed";
    case "stopped": {
      const errors =
        reason.errors.length === 0 ? "" : ` after an error (${reason.errors.join("; ")})`;
      return `the run stopped before ${reason.next.join(", ")}${errors}`;
    }
    case "other_interrupt":
      return `it is paused at an interrupt that is not a review (${reason.interruptIds.join(", ")})`;
  }
}

/** A decision was submitted to a thread that is not paused at a review. */
export class ThreadNotPausedError extends OrchestratorError {
  override readonly name = "ThreadNotPausedError";
  readonly reason: NotPausedReason;

  constructor(threadId: string, reason: NotPausedReason) {
    super(threadId, `not paused at a review: ${describeNotPaused(reason)}`);
    this.reason = reason;
  }
}

/** The thread is paused, but at another interrupt than the one the decision was meant for. */
export class InterruptMismatchError extends OrchestratorError {
  override readonly name = "InterruptMismatchError";
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

  constructor(threadId: string, message: string, options?: { cause?: unknown }) {
    super(threadId, message, options);
  }
}

/** The thread's stored state does not have the shape the review fields need. */
export class ThreadStateError extends OrchestratorError {
  override readonly name = "ThreadStateError";
}

/** The checkpointer could not be opened: the SQLite file or the PostgreSQL database. */
export class CheckpointerError extends Error {
  override readonly name = "CheckpointerError";
  /** The SQLite path, or the PostgreSQL URL without its password. */
  readonly location: string;

  constructor(location: string, message: string, options?: { cause?: unknown }) {
    super(`checkpointer ${location}: ${message}`, options);
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
