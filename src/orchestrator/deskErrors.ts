/**
 * The review desk's errors: what it refused of a request on a reviewer's behalf. Each carries a
 * code of DESK_ERROR_STATUS (reviewDesk.ts), which the service maps to an HTTP status.
 */
import { EvalgateError, errorGuard } from "../errors.js";
import { quotedId, shownId } from "../graph/reviewInput.js";
import { DESK_ERROR_STATUS, type DeskErrorCode } from "./reviewDesk.js";

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
    super("NOT_ASSIGNED", `${reviewer} is not assigned to thread ${shownId(threadId)}`, {
      threadId,
      reviewer,
    });
  }
}

/** No thread of that id in the review store. */
export class UnknownThreadError extends DeskError {
  override readonly name = "UnknownThreadError";
  constructor(threadId: string) {
    super("THREAD_NOT_FOUND", `no thread ${shownId(threadId)}`, { threadId });
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
        : `it waits for ${pending.map((id) => quotedId(id)).join(", ")}`;
    super(
      "REVIEW_NOT_PENDING",
      `thread ${shownId(threadId)} is not waiting for a decision on ${quotedId(interruptId)}: ${now}`,
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
    super("THREAD_NOT_FAILED", `thread ${shownId(threadId)} is ${status}, not failed`, {
      threadId,
      status,
    });
  }
}

/** The codes of the review desk's errors, one per class (DESK_ERROR_STATUS gives their status). */
export const DESK_ERROR_CODES = Object.keys(DESK_ERROR_STATUS) as readonly DeskErrorCode[];

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
