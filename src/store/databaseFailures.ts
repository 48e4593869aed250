/**
 * A conflict PostgreSQL broke up is run again inside the store; a database out of reach now is
 * STORE_UNAVAILABLE (503 and Retry-After; a thread's job is retried, not failed).
 */
import { isEvalgateError } from "../errors.js";
import { StoreError } from "./errors.js";

/** SQLSTATEs of a transaction PostgreSQL rolled back to break a conflict: run it again. */
const CONFLICTS = new Set(["40P01", "40001"]);

/** Class 08 too; the server shutting down, crashed or starting; out of connections. */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

/** Node's socket errors, and pg's own words for a connection that went or never came. */
const UNAVAILABLE_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"]);
const UNAVAILABLE_MESSAGES = [
  "Connection terminated",
  "connection error and is not queryable",
  "timeout exceeded when trying to connect",
  "Client was closed and is not queryable",
  "the database system is",
];

export const CONFLICT_ATTEMPTS = 8;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

export function isTransactionConflict(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && CONFLICTS.has(code);
}

export function isDatabaseUnreachable(error: unknown): boolean {
  // A model server out of reach is not the database, even with ECONNREFUSED as its cause.
  if (isEvalgateError(error)) return error.code === "STORE_UNAVAILABLE";
  if (typeof error !== "object" || error === null) return false;
  const code = codeOf(error);
  if (code !== undefined) {
    if (code.startsWith("08") || UNAVAILABLE_STATES.has(code) || UNAVAILABLE_ERRNOS.has(code)) {
      return true;
    }
    if (code === "SQLITE_BUSY") return true;
  }
  const message = error instanceof Error ? error.message : "";
  if (UNAVAILABLE_MESSAGES.some((words) => message.includes(words))) return true;
  // pg's connection to every address of a host name failing at once.
  const errors = (error as { errors?: unknown }).errors;
  return Array.isArray(errors) && errors.some(isDatabaseUnreachable);
}

export function storeUnavailable(cause: unknown): StoreError {
  return new StoreError(
    "STORE_UNAVAILABLE",
    "the database cannot be reached right now; try again in a few seconds",
    { cause },
  );
}

export function asStoreFailure(error: unknown): unknown {
  if (isEvalgateError(error)) return error;
  return isDatabaseUnreachable(error) ? storeUnavailable(error) : error;
}

export function conflictPause(attempt: number): Promise<void> {
  const ms = Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random());
  return new Promise((resolve) => setTimeout(resolve, ms));
}
