/**
 * The review service's own errors, and how anything a handler throws is answered: SERVICE_ERROR_STATUS
 * turns every code into an HTTP status; the body is `{ error: { code, message, field? } }`, the
 * message ending in `[CODE]` (docs/errors.md). Any other error is a generic 500: its message may
 * carry internals (paths, SQL, connection strings) and never leaves the process.
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import { DESK_ERROR_STATUS } from "../desk/errors.js";
import { EvalgateError, isEvalgateError, withErrorCode } from "../errors.js";
import { asStoreFailure } from "../store/databaseFailures.js";

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

export interface ErrorBody {
  error: {
    code: string;
    message: string;
    field?: string;
    /** For a decision that came too late: who decided the review first, and when. */
    decidedBy?: string;
    decidedAt?: string;
  };
}

interface DescribedError {
  status: ContentfulStatusCode;
  body: ErrorBody;
  /** Seconds to send as `Retry-After`. */
  retryAfter?: number;
  /** Not raised on purpose by the service or desk: log it. */
  unexpected: boolean;
}

const Said = z.string().min(1).optional().catch(undefined);
/** What an error says beyond its code and message: desk errors in `details`, service errors as properties. */
const SaidSchema = z.object({ field: Said, by: Said, at: Said, action: Said }).catch({});

/** Who decided a review first, when and how, as a desk error says it (ALREADY_DECIDED). */
export function saidBy(error: unknown): z.infer<typeof SaidSchema> {
  return SaidSchema.parse((error as { details?: unknown } | undefined)?.details);
}

function errorSpecifics(error: object): Omit<ErrorBody["error"], "code" | "message"> {
  const { field = SaidSchema.parse(error).field, by, at } = saidBy(error);
  return {
    ...(field === undefined ? {} : { field }),
    ...(by === undefined ? {} : { decidedBy: by }),
    ...(at === undefined ? {} : { decidedAt: at }),
  };
}

const HTTP_CODES: Record<number, string> = {
  400: "INVALID_INPUT",
  404: "ROUTE_NOT_FOUND",
  413: "PAYLOAD_TOO_LARGE",
};

/** How long a client waits while the database is out of reach. */
export const UNAVAILABLE_RETRY_SECONDS = 2;

function retryAfterOf(error: object, status: number): number | undefined {
  if (status === 503) return UNAVAILABLE_RETRY_SECONDS;
  const seconds: unknown = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  return typeof seconds === "number" ? Math.max(1, Math.ceil(seconds)) : undefined;
}

export function describeError(thrown: unknown): DescribedError {
  // A database out of reach (a restart) is STORE_UNAVAILABLE whichever layer met it.
  const error = asStoreFailure(thrown);
  if (isEvalgateError(error) && statusForCode(error.code) !== 500) {
    const message = withErrorCode(error.message, error.code);
    const body: ErrorBody = { error: { code: error.code, message, ...errorSpecifics(error) } };
    const status = statusForCode(error.code);
    const retryAfter = retryAfterOf(error, status);
    return { status, body, unexpected: false, ...(retryAfter === undefined ? {} : { retryAfter }) };
  }
  if (error instanceof HTTPException && error.status < 500) {
    const code = HTTP_CODES[error.status] ?? "INVALID_INPUT";
    const message = withErrorCode(error.message || "the request could not be read", code);
    return { status: statusForCode(code), body: { error: { code, message } }, unexpected: false };
  }
  const message = withErrorCode("the service failed to answer; see its log", "INTERNAL");
  return { status: 500, body: { error: { code: "INTERNAL", message } }, unexpected: true };
}
