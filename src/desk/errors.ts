/**
 * The review desk's errors: what it refused of a request on a reviewer's behalf. Each is a
 * DeskError carrying a code of DESK_ERROR_STATUS (reviewDesk.ts), which the service maps to an
 * HTTP status; the functions below make the desk's refusals with their messages and details.
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
export class DeskError extends EvalgateError<DeskErrorCode> {
  override name = "DeskError";
  readonly details: DeskErrorDetails;

  constructor(code: DeskErrorCode, message: string, details: DeskErrorDetails = {}) {
    super(code, message);
    this.details = details;
  }
}

/** No token, or a token that is unknown or revoked (`UNAUTHENTICATED`). */
export function unauthenticated(): DeskError {
  return new DeskError("UNAUTHENTICATED", "a valid reviewer token is needed");
}

/** The reviewer's role does not allow the action: assigning reviewers takes an admin (`FORBIDDEN`). */
export function forbidden(action: string, reviewer: string): DeskError {
  return new DeskError("FORBIDDEN", `${reviewer} may not ${action}: it takes an admin`, {
    action,
    reviewer,
  });
}

/** The reviewer is not assigned to the thread (`NOT_ASSIGNED`). */
export function notAssigned(threadId: string, reviewer: string): DeskError {
  return new DeskError(
    "NOT_ASSIGNED",
    `${reviewer} is not assigned to thread ${shownId(threadId)}`,
    { threadId, reviewer },
  );
}

/** No thread of that id in the review store (`THREAD_NOT_FOUND`). */
export function unknownThread(threadId: string): DeskError {
  return new DeskError("THREAD_NOT_FOUND", `no thread ${shownId(threadId)}`, { threadId });
}

/** A request the desk cannot take as given: the field and why (`INVALID_INPUT`). */
export function invalidInput(field: string, message: string): DeskError {
  return new DeskError("INVALID_INPUT", `${field}: ${message}`, { field });
}

/** The thread does not wait for a decision on that interrupt (`REVIEW_NOT_PENDING`). */
export function reviewNotPending(
  threadId: string,
  interruptId: string,
  pending: readonly string[],
): DeskError {
  const now =
    pending.length === 0
      ? "it waits for no review now"
      : `it waits for ${pending.map((id) => quotedId(id)).join(", ")}`;
  return new DeskError(
    "REVIEW_NOT_PENDING",
    `thread ${shownId(threadId)} is not waiting for a decision on ${quotedId(interruptId)}: ${now}`,
    { threadId, interruptId, pending: [...pending] },
  );
}

/** Who decided the review already, when, and what (an `ALREADY_DECIDED` refusal's details). */
export interface EarlierDecision {
  by: string;
  at: string;
  action: string;
  decisionId: string;
}

/** Someone decided this review already: who, when, what (`ALREADY_DECIDED`). */
export function alreadyDecided(
  threadId: string,
  interruptId: string,
  decided: EarlierDecision,
): DeskError {
  return new DeskError(
    "ALREADY_DECIDED",
    `the review was decided already: ${decided.action} by ${decided.by} at ${decided.at}`,
    { threadId, interruptId, ...decided },
  );
}

/** The review does not offer that action: revise at the revision limit (`ACTION_NOT_OFFERED`). */
export function actionNotOffered(action: string, offered: readonly string[]): DeskError {
  return new DeskError(
    "ACTION_NOT_OFFERED",
    `this review takes ${offered.join(", ")} — not ${action}`,
    {
      action,
      offered: [...offered],
    },
  );
}

/** Retry asked of a thread that has not failed (`THREAD_NOT_FAILED`). */
export function threadNotFailed(threadId: string, status: string): DeskError {
  return new DeskError(
    "THREAD_NOT_FAILED",
    `thread ${shownId(threadId)} is ${status}, not failed`,
    {
      threadId,
      status,
    },
  );
}

/** The codes of the review desk's errors (DESK_ERROR_STATUS gives their status). */
export const DESK_ERROR_CODES = Object.keys(DESK_ERROR_STATUS) as readonly DeskErrorCode[];

export const isDeskError = errorGuard<DeskError>(...DESK_ERROR_CODES);
export const isUnauthenticatedError = errorGuard<DeskError>("UNAUTHENTICATED");
export const isForbiddenError = errorGuard<DeskError>("FORBIDDEN");
export const isNotAssignedError = errorGuard<DeskError>("NOT_ASSIGNED");
export const isUnknownThreadError = errorGuard<DeskError>("THREAD_NOT_FOUND");
export const isInvalidInputError = errorGuard<DeskError>("INVALID_INPUT");
export const isReviewNotPendingError = errorGuard<DeskError>("REVIEW_NOT_PENDING");
export const isAlreadyDecidedError = errorGuard<DeskError>("ALREADY_DECIDED");
export const isActionNotOfferedError = errorGuard<DeskError>("ACTION_NOT_OFFERED");
export const isThreadNotFailedError = errorGuard<DeskError>("THREAD_NOT_FAILED");
