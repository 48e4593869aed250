/**
 * Opens the review store beside the checkpoints: PostgreSQL when a database URL is given (or,
 * without an explicit SQLite path, DATABASE_URL is set), otherwise SQLite in the checkpoints'
 * file (`.evalgate/checkpoints.sqlite` by default).
 */
import { isAbsolute, resolve } from "node:path";
import { DEFAULT_SQLITE_PATH } from "../orchestrator/checkpointer.js";
import { PostgresReviewStore } from "./postgresStore.js";
import { SqliteReviewStore } from "./sqliteStore.js";
import type { ReviewStore } from "./types.js";

export interface ReviewStoreOptions {
  sqlitePath?: string;
  databaseUrl?: string;
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
}

export type ReviewStoreLocation =
  | { kind: "sqlite"; path: string }
  | { kind: "postgres"; url: string };

/** Which database the options name, resolved as createCheckpointer resolves it. */
export function reviewStoreLocation(options: ReviewStoreOptions = {}): ReviewStoreLocation {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const explicitUrl = options.databaseUrl?.trim();
  if (explicitUrl !== undefined && explicitUrl !== "")
    return { kind: "postgres", url: explicitUrl };
  if (options.sqlitePath === undefined) {
    const envUrl = env.DATABASE_URL?.trim();
    if (envUrl !== undefined && envUrl !== "") return { kind: "postgres", url: envUrl };
  }
  const path = options.sqlitePath ?? DEFAULT_SQLITE_PATH;
  return {
    kind: "sqlite",
    path: path === ":memory:" || isAbsolute(path) ? path : resolve(cwd, path),
  };
}

export async function openReviewStore(options: ReviewStoreOptions = {}): Promise<ReviewStore> {
  const location = reviewStoreLocation(options);
  if (location.kind === "postgres") return PostgresReviewStore.open(location.url);
  return SqliteReviewStore.open(location.path);
}

export { ReviewerExistsError, StoreDataError, StoreOpenError } from "./errors.js";
export { hashToken, newReviewerToken } from "./tokens.js";
export type * from "./types.js";
