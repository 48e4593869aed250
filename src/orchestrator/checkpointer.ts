import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import Database from "better-sqlite3";
import pg from "pg";
import { redactSecretText as redactUrl } from "../redact.js";
import { surviveConnectionLoss } from "../store/connections.js";
import { type DatabaseOptions, databaseLocation } from "../store/location.js";
import { DeflatedJsonSerializer } from "./checkpointSerializer.js";
import { CheckpointerError } from "./errors.js";

/** The checkpoints' database, named as the store names it (see databaseLocation). */
export type CheckpointerOptions = DatabaseOptions;

/** An open checkpoint store: the LangGraph saver, what it is, and how to close it. */
export interface Checkpointer {
  readonly saver: BaseCheckpointSaver;
  readonly kind: "sqlite" | "postgres";
  /** The SQLite file, or the PostgreSQL URL without its password. */
  readonly location: string;
  /** Closes the database connection; safe to call more than once. */
  close(): Promise<void>;
}

/** The database each checkpointer createCheckpointer opened is in (the review store opens there too). */
const DATABASES = new WeakMap<Checkpointer, { sqlitePath: string } | { databaseUrl: string }>();

/** The database a checkpointer from createCheckpointer is in; undefined for any other. */
export function checkpointerDatabase(
  checkpointer: Checkpointer,
): { sqlitePath: string } | { databaseUrl: string } | undefined {
  return DATABASES.get(checkpointer);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function closable(value: unknown): value is { close(): unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    "close" in value &&
    typeof value.close === "function"
  );
}

function once(action: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= action();
    return closing;
  };
}

/**
 * The checkpoint connection commits without waiting for the disk (WAL with `synchronous =
 * NORMAL`): a commit survives the process dying (kill -9, a crash), and only a power loss or an
 * operating-system crash can take back the last ones. That loses no decision: a reviewer's
 * decision is recorded by the review store, whose connection keeps waiting for the disk, before
 * it is accepted, and a thread whose checkpoint did not keep it applies it again (the runner
 * applies every decision the checkpoint does not show as applied). What such a loss costs is
 * redoing the last steps. Waiting for the disk on every checkpoint write was most of what a
 * resume spent in the database.
 */
function relaxSync(db: unknown): void {
  const pragma = (db as { pragma?: (source: string) => unknown }).pragma;
  if (typeof pragma === "function") pragma.call(db, "synchronous = NORMAL");
}

async function openSqlite(location: string): Promise<Checkpointer> {
  const inMemory = location === ":memory:";
  try {
    if (!inMemory) mkdirSync(dirname(location), { recursive: true });
  } catch (error) {
    throw new CheckpointerError(location, `cannot create its folder: ${messageOf(error)}`, {
      cause: error,
    });
  }
  let saver: SqliteSaver;
  try {
    // Checkpoints deflated (a third of the bytes); rows written without it are read as they are.
    saver = new SqliteSaver(new Database(location), new DeflatedJsonSerializer());
  } catch (error) {
    throw new CheckpointerError(location, `cannot open the SQLite file: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const db: unknown = saver.db;
  const close = once(async () => {
    if (closable(db)) db.close();
  });
  try {
    // Creates the tables now, so an unusable file is reported here and not on first use.
    await saver.getTuple({ configurable: { thread_id: "" } });
    relaxSync(db);
  } catch (error) {
    await close();
    throw new CheckpointerError(location, `not a usable SQLite database: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const checkpointer: Checkpointer = { saver, kind: "sqlite", location, close };
  DATABASES.set(checkpointer, { sqlitePath: location });
  return checkpointer;
}

/**
 * PostgreSQL's counterpart of relaxSync: the checkpoint connections commit without waiting for
 * the WAL flush (`synchronous_commit = off`). A commit still survives the process dying; only a
 * crash of the database server or its machine can take back the last ones (at most three
 * `wal_writer_delay`s, 600 ms by default), and never out of order. The review store's own
 * connections keep waiting for the flush, so every decision it accepts and every thread it settles
 * is durable, and with it, by the WAL's order, every checkpoint written before.
 */
const ASYNCHRONOUS_COMMIT = "-c synchronous_commit=off";

async function openPostgres(url: string): Promise<Checkpointer> {
  const location = redactUrl(url);
  let saver: PostgresSaver;
  try {
    // Its connections are cut when the server restarts: the pool listens, the process lives on.
    const pool = surviveConnectionLoss(
      new pg.Pool({ connectionString: url, options: ASYNCHRONOUS_COMMIT }),
    );
    saver = new PostgresSaver(pool);
  } catch (error) {
    throw new CheckpointerError(location, `invalid PostgreSQL URL: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const close = once(() => saver.end());
  try {
    await saver.setup();
  } catch (error) {
    await close().catch(() => undefined);
    throw new CheckpointerError(
      location,
      `cannot set up the checkpoint tables: ${messageOf(error)}`,
      { cause: error },
    );
  }
  const checkpointer: Checkpointer = { saver, kind: "postgres", location, close };
  DATABASES.set(checkpointer, { databaseUrl: url });
  return checkpointer;
}

/**
 * Opens the checkpoint store the review threads live in: PostgreSQL when `databaseUrl` is given
 * (or, without an explicit `sqlitePath`, when DATABASE_URL is set), with its tables set up;
 * otherwise SQLite, by default `.evalgate/checkpoints.sqlite` under the working directory (the
 * folder is created). Close it when done.
 */
export async function createCheckpointer(options: CheckpointerOptions = {}): Promise<Checkpointer> {
  if (options.sqlitePath?.trim() === "" && !options.databaseUrl?.trim()) {
    throw new CheckpointerError("(sqlite)", "the SQLite path is empty");
  }
  const location = databaseLocation(options);
  return location.kind === "postgres" ? openPostgres(location.url) : openSqlite(location.path);
}
