import { EvalgateError, errorGuard } from "../errors.js";

const STORE_ERROR_CODES = [
  "STORE_OPEN_FAILED",
  "STORE_DATA_INVALID",
  "REVIEWER_EXISTS",
  "STORE_UNAVAILABLE",
] as const;
export type StoreErrorCode = (typeof STORE_ERROR_CODES)[number];

/** An error of the database (checkpoints, traces, judge cache, reviews); `code` says what. */
export class StoreError extends EvalgateError<StoreErrorCode> {}

/** The store at `location` (a URL without its password) could not be opened or migrated. */
export function storeOpenFailed(
  location: string,
  message: string,
  options: { cause?: unknown } = {},
): StoreError {
  return new StoreError("STORE_OPEN_FAILED", `database ${location}: ${message}`, options);
}

export function storeDataInvalid(message: string, options: { cause?: unknown } = {}): StoreError {
  return new StoreError("STORE_DATA_INVALID", `database: ${message}`, options);
}

export function reviewerExists(reviewer: string): StoreError {
  return new StoreError("REVIEWER_EXISTS", `a reviewer named "${reviewer}" exists already`);
}

export const isStoreError = errorGuard<StoreError>(...STORE_ERROR_CODES);
