/** The review service's own errors; SERVICE_ERROR_STATUS turns every code into an HTTP status. */
import { DESK_ERROR_STATUS } from "../desk/errors.js";
import { EvalgateError } from "../errors.js";

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
  readonly field: string | undefined;
  /** Sent as `Retry-After` (429). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ServiceErrorCode, message: string, field?: string, retryAfterSeconds?: number) {
    super(code, message);
    this.field = field;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function statusForCode(code: string): (typeof SERVICE_ERROR_STATUS)[ServiceErrorCode] {
  return code in SERVICE_ERROR_STATUS ? SERVICE_ERROR_STATUS[code as ServiceErrorCode] : 500;
}
