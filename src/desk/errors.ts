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

/** A request the review desk refused; `details` says what exactly (an HTTP body's fields). */
export class DeskError extends EvalgateError<DeskErrorCode> {
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: DeskErrorCode,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
  ) {
    super(code, message);
    this.details = details;
  }
}

export const unauthenticated = () =>
  new DeskError("UNAUTHENTICATED", "a valid reviewer token is needed");

export const forbidden = (action: string, reviewer: string) =>
  new DeskError("FORBIDDEN", `${reviewer} may not ${action}: it takes an admin`, {
    action,
    reviewer,
  });

export const notAssigned = (threadId: string, reviewer: string) =>
  new DeskError("NOT_ASSIGNED", `${reviewer} is not assigned to thread ${shownId(threadId)}`, {
    threadId,
    reviewer,
  });

export const unknownThread = (threadId: string) =>
  new DeskError("THREAD_NOT_FOUND", `no thread ${shownId(threadId)}`, { threadId });

export const invalidInput = (field: string, message: string) =>
  new DeskError("INVALID_INPUT", `${field}: ${message}`, { field });

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

export const alreadyDecided = (threadId: string, interruptId: string, decided: EarlierDecision) =>
  new DeskError(
    "ALREADY_DECIDED",
    `the review was decided already: ${decided.action} by ${decided.by} at ${decided.at}`,
    { threadId, interruptId, ...decided },
  );

export const actionNotOffered = (action: string, offered: readonly string[]) =>
  new DeskError("ACTION_NOT_OFFERED", `this review takes ${offered.join(", ")} — not ${action}`, {
    action,
    offered: [...offered],
  });

export const threadNotFailed = (threadId: string, status: string) =>
  new DeskError("THREAD_NOT_FAILED", `thread ${shownId(threadId)} is ${status}, not failed`, {
    threadId,
    status,
  });

export const isDeskError = errorGuard<DeskError>(...Object.keys(DESK_ERROR_STATUS));
