/** The review desk's refusals, each code with the HTTP status the service answers it with. */
import { EvalgateError, errorGuard } from "../errors.js";
import { quotedId, shownId } from "../graph/reviewInput.js";

export const DESK_ERROR_STATUS = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_ASSIGNED: 403,
  THREAD_NOT_FOUND: 404,
  INVALID_INPUT: 400,
  REVIEW_NOT_PENDING: 409,
  ALREADY_DECIDED: 409,
  ACTION_NOT_OFFERED: 422,
  THREAD_NOT_FAILED: 409,
} as const;
export type DeskErrorCode = keyof typeof DESK_ERROR_STATUS;

export type DeskErrorDetails = Readonly<Record<string, unknown>>;

/** A request the review desk refused; `details` says what exactly (an HTTP body's fields). */
export class DeskError extends EvalgateError<DeskErrorCode> {
  readonly details: DeskErrorDetails;

  constructor(code: DeskErrorCode, message: string, details: DeskErrorDetails = {}) {
    super(code, message);
    this.details = details;
  }
}

export function unauthenticated(): DeskError {
  return new DeskError("UNAUTHENTICATED", "a valid reviewer token is needed");
}

export function forbidden(action: string, reviewer: string): DeskError {
  return new DeskError("FORBIDDEN", `${reviewer} may not ${action}: it takes an admin`, {
    action,
    reviewer,
  });
}

export function notAssigned(threadId: string, reviewer: string): DeskError {
  return new DeskError(
    "NOT_ASSIGNED",
    `${reviewer} is not assigned to thread ${shownId(threadId)}`,
    { threadId, reviewer },
  );
}

export function unknownThread(threadId: string): DeskError {
  return new DeskError("THREAD_NOT_FOUND", `no thread ${shownId(threadId)}`, { threadId });
}

export function invalidInput(field: string, message: string): DeskError {
  return new DeskError("INVALID_INPUT", `${field}: ${message}`, { field });
}

/** A decision on `interruptId` (or, without one, a review asked for) that the thread does not wait for. */
export function reviewNotPending(
  threadId: string,
  interruptId: string | undefined,
  pending: readonly string[],
): DeskError {
  const now =
    pending.length === 0
      ? "it waits for no review now"
      : `it waits for ${pending.map((id) => quotedId(id)).join(", ")}`;
  const thread = `thread ${shownId(threadId)}`;
  return new DeskError(
    "REVIEW_NOT_PENDING",
    interruptId === undefined
      ? `${thread} waits for no review now`
      : `${thread} is not waiting for a decision on ${quotedId(interruptId)}: ${now}`,
    { threadId, ...(interruptId === undefined ? {} : { interruptId }), pending: [...pending] },
  );
}

/** Who decided the review already, when, and what (an `ALREADY_DECIDED` refusal's details). */
export interface EarlierDecision {
  by: string;
  at: string;
  action: string;
  decisionId: string;
}

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

export const isDeskError = errorGuard<DeskError>(...Object.keys(DESK_ERROR_STATUS));
