/**
 * Errors of the review service itself (the desk's own errors come from the orchestrator). Every
 * one carries a code from SERVICE_ERROR_STATUS, the one table that turns a code into an HTTP status.
 */

import { DESK_ERROR_STATUS } from "../desk/errors.js";
import { EvalgateError } from "../errors.js";

/** Every error code the service answers with, and its HTTP status: the desk's codes and its own. */
export const SERVICE_ERROR_STATUS = {
  ...DESK_ERROR_STATUS,
  CSRF_REJECTED: 403,
  ORIGIN_REJECTED: 403,
  ROUTE_NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_ATTEMPTS: 429,
  INTERNAL: 500,
  STORE_UNAVAILABLE: 503,
} as const;
export type ServiceErrorCode = keyof typeof SERVICE_ERROR_STATUS;

/** A request the service refuses before it reaches the desk (bad body, bad form, no session). */
export class ServiceRequestError extends EvalgateError {
  override readonly name = "ServiceRequestError";
  /** The body or query field at fault, when there is one. */
  readonly field: string | undefined;
  /** Seconds after which the request may be sent again (429), sent as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ServiceErrorCode, message: string, field?: string, retryAfterSeconds?: number) {
    super(code, message);
    this.field = field;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The status for an error code; unknown codes are internal errors. */
export function statusForCode(code: string): (typeof SERVICE_ERROR_STATUS)[ServiceErrorCode] {
  return code in SERVICE_ERROR_STATUS ? SERVICE_ERROR_STATUS[code as ServiceErrorCode] : 500;
}
