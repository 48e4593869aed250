import { EvalgateError, errorGuard } from "../errors.js";

/** Every code the review store's errors carry. */
export const STORE_ERROR_CODES = [
  "STORE_OPEN_FAILED",
  "STORE_DATA_INVALID",
  "REVIEWER_EXISTS",
  "STORE_UNAVAILABLE",
] as const;
export type StoreErrorCode = (typeof STORE_ERROR_CODES)[number];

/**
 * An error of the review store; `code` says what: the SQLite file or PostgreSQL database could not
 * be opened or migrated (`STORE_OPEN_FAILED`), a row does not have the shape this version writes
 * (`STORE_DATA_INVALID`), `reviewers add` was given a name that is taken (`REVIEWER_EXISTS`), or
 * the database cannot be reached right now (`STORE_UNAVAILABLE`: restarting, the connection cut).
 */
export class StoreError extends EvalgateError<StoreErrorCode> {
  override name = "StoreError";
}

/**
 * The review store at `location` (the SQLite path, or the PostgreSQL URL without its password)
 * could not be opened or migrated (`STORE_OPEN_FAILED`).
 */
export function storeOpenFailed(
  location: string,
  message: string,
  options: { cause?: unknown } = {},
): StoreError {
  return new StoreError("STORE_OPEN_FAILED", `review store ${location}: ${message}`, options);
}

/** A row in the store does not have the shape this version writes (`STORE_DATA_INVALID`). */
export function storeDataInvalid(message: string, options: { cause?: unknown } = {}): StoreError {
  return new StoreError("STORE_DATA_INVALID", `review store: ${message}`, options);
}

/** `reviewers add` with a name that is taken (`REVIEWER_EXISTS`). */
export function reviewerExists(reviewer: string): StoreError {
  return new StoreError("REVIEWER_EXISTS", `a reviewer named "${reviewer}" exists already`);
}

export const isStoreError = errorGuard<StoreError>(...STORE_ERROR_CODES);
