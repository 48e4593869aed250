/**
 * Anything a handler throws as `{ error: { code, message, field? } }` and its status, the message
 * ending in `[CODE]` (docs/errors.md). Any other error is a generic 500: its message may carry
 * internals (paths, SQL, connection strings) and never leaves the process.
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isEvalgateError, withErrorCode } from "../errors.js";
import { asStoreFailure } from "../store/databaseFailures.js";
import { statusForCode } from "./errors.js";

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

function optionalString(value: unknown, key: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const found: unknown = (value as Record<string, unknown>)[key];
  return typeof found === "string" && found !== "" ? found : undefined;
}

/** From the error's `details` (desk errors) or its own properties (service errors). */
function errorSpecifics(error: object): Omit<ErrorBody["error"], "code" | "message"> {
  const details: unknown = (error as { details?: unknown }).details;
  const specifics: Omit<ErrorBody["error"], "code" | "message"> = {};
  const field = optionalString(details, "field") ?? optionalString(error, "field");
  const decidedBy = optionalString(details, "by");
  const decidedAt = optionalString(details, "at");
  if (field !== undefined) specifics.field = field;
  if (decidedBy !== undefined) specifics.decidedBy = decidedBy;
  if (decidedAt !== undefined) specifics.decidedAt = decidedAt;
  return specifics;
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
