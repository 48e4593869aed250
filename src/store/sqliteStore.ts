/**
 * The review store on SQLite (better-sqlite3), in the checkpoints' file: WAL mode and a busy
 * timeout, so the checkpointer's own connection and other processes (the CLI beside a running
 * service) share it. A thread's lock is a row naming the live process that holds it.
 */
import { openMigratedSqlite } from "./connections.js";
import { SqlReviewStore } from "./reviewStore.js";

export class SqliteReviewStore extends SqlReviewStore {
  /** The store in the SQLite file at `path` (made when missing), its schema up to date. */
  static async open(path: string): Promise<SqliteReviewStore> {
    return new SqliteReviewStore(await openMigratedSqlite(path));
  }
}
