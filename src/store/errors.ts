import { EvalgateError } from "../errors.js";

/** The review store could not be opened or migrated (the SQLite file or the PostgreSQL database). */
export class StoreOpenError extends EvalgateError {
  override readonly name = "StoreOpenError";
  /** The SQLite path, or the PostgreSQL URL without its password. */
  readonly location: string;

  constructor(location: string, message: string, options: { cause?: unknown } = {}) {
    super("STORE_OPEN_FAILED", `review store ${location}: ${message}`, options);
    this.location = location;
  }
}

/** A row in the store does not have the shape this version writes. */
export class StoreDataError extends EvalgateError {
  override readonly name = "StoreDataError";

  constructor(message: string, options: { cause?: unknown } = {}) {
    super("STORE_DATA_INVALID", `review store: ${message}`, options);
  }
}

/** `reviewers add` with a name that is taken. */
export class ReviewerExistsError extends EvalgateError {
  override readonly name = "ReviewerExistsError";
  readonly reviewer: string;

  constructor(reviewer: string) {
    super("REVIEWER_EXISTS", `a reviewer named "${reviewer}" exists already`);
    this.reviewer = reviewer;
  }
}

/** Every code the review store's errors carry. */
export const STORE_ERROR_CODES = [
  "STORE_OPEN_FAILED",
  "STORE_DATA_INVALID",
  "REVIEWER_EXISTS",
] as const;
