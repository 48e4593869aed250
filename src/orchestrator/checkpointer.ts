import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import Database from "better-sqlite3";
import pg from "pg";
import { redactSecretText } from "../redact.js";
import { surviveConnectionLoss } from "../store/connections.js";
import { type DatabaseOptions, databaseLocation } from "../store/location.js";
import { DeflatedJsonSerializer } from "./checkpointSerializer.js";
import { CheckpointerError } from "./errors.js";

export type CheckpointerOptions = DatabaseOptions;

/** An open checkpoint store: the LangGraph saver, what it is, and how to close it. */
export interface Checkpointer {
  readonly saver: BaseCheckpointSaver;
  readonly kind: "sqlite" | "postgres";
  readonly location: string;
  close(): Promise<void>;
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
 * The checkpoint connection commits without waiting for the disk (WAL, `synchronous = NORMAL`):
 * only a power loss can take back the last commits, and no decision is lost with them — the review
 * store records it (waiting for the disk) before it is accepted, and the runner applies again any
 * decision the checkpoint does not show. Waiting for the disk was most of a resume's database time.
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
  return { saver, kind: "sqlite", location, close };
}

/**
 * PostgreSQL's counterpart of relaxSync (`synchronous_commit = off`): only a database crash takes
 * back the last commits, in order, and the review store's own connections still wait for the flush.
 */
const ASYNCHRONOUS_COMMIT = "-c synchronous_commit=off";

async function openPostgres(url: string): Promise<Checkpointer> {
  const location = redactSecretText(url);
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
  return { saver, kind: "postgres", location, close };
}

/**
 * Opens the checkpoint store: PostgreSQL when `databaseUrl` (or, without `sqlitePath`, DATABASE_URL)
 * is given, else SQLite at `.evalgate/checkpoints.sqlite` under the working directory.
 */
export async function createCheckpointer(options: CheckpointerOptions = {}): Promise<Checkpointer> {
  if (options.sqlitePath?.trim() === "" && !options.databaseUrl?.trim()) {
    throw new CheckpointerError("(sqlite)", "the SQLite path is empty");
  }
  const location = databaseLocation(options);
  return location.kind === "postgres" ? openPostgres(location.url) : openSqlite(location.path);
}
