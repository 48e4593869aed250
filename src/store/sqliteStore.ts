/**
 * The review store on SQLite (better-sqlite3), in the checkpoints' file: WAL mode and a busy
 * timeout, so the checkpointer's own connection and other processes (the CLI beside a running
 * service) share it. A thread's lock is a row naming the live process that holds it.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import { StoreOpenError } from "./errors.js";
import { MIGRATIONS, MIGRATIONS_TABLE } from "./migrations.js";
import {
  decisionOf,
  PENDING_COLUMNS,
  pendingOf,
  pendingPageQuery,
  pendingValues,
  threadOf,
} from "./rows.js";
import { now, SqliteTables } from "./sqliteTables.js";
import {
  DESK_GRAPH,
  type NewDecision,
  type NewEvent,
  type NewThread,
  type PendingQuery,
  type RecordDecisionResult,
  type ReviewStore,
  type ThreadSettlement,
  type ThreadState,
} from "./types.js";

export function migrate(db: Database.Database): void {
  db.exec(MIGRATIONS_TABLE);
  const applied = new Set(
    db
      .prepare("SELECT id FROM evalgate_migrations")
      .all()
      .map((r) => (r as { id: number }).id),
  );
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.id)) continue;
    db.transaction(() => {
      db.exec(migration.sqlite);
      db.prepare("INSERT INTO evalgate_migrations (id, name, applied_at) VALUES (?, ?, ?)").run(
        migration.id,
        migration.name,
        now(),
      );
    }).immediate();
  }
}

/**
 * A connection to the SQLite file at `path` (made with its folder when missing; ":memory:" for
 * none) in WAL mode with a busy timeout, the store's schema brought up to date; a file that
 * cannot be opened or migrated is a StoreOpenError naming it.
 */
export function openMigratedSqlite(path: string, foreignKeys = true): Database.Database {
  let db: Database.Database | undefined;
  try {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 10000");
    if (foreignKeys) db.pragma("foreign_keys = ON");
    migrate(db);
  } catch (error) {
    if (db?.open) db.close();
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreOpenError(path, reason, { cause: error });
  }
  return db;
}

export class SqliteReviewStore extends SqliteTables implements ReviewStore {
  readonly kind = "sqlite";
  private constructor(db: Database.Database) {
    super(db);
  }

  static open(path: string): SqliteReviewStore {
    return new SqliteReviewStore(openMigratedSqlite(path));
  }

  async createThread(thread: NewThread, event: NewEvent): Promise<void> {
    const at = now();
    this.db
      .transaction(() => {
        this.sql(
          "INSERT INTO threads (id, graph, title, creator, status, created_at, updated_at, settings) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ).run(
          thread.id,
          thread.graph ?? DESK_GRAPH,
          thread.title,
          thread.creator,
          thread.status,
          at,
          at,
          JSON.stringify(thread.settings),
        );
        this.sql("INSERT OR IGNORE INTO assignments (thread_id, reviewer) VALUES (?, ?)").run(
          thread.id,
          thread.creator,
        );
        this.insertEvent(thread.id, event);
      })
      .immediate();
  }

  async thread(threadId: string) {
    const row = this.sql("SELECT * FROM threads WHERE id = ?").get(threadId);
    return row === undefined ? undefined : threadOf(row);
  }

  async setThreadStatus(
    threadId: string,
    status: ThreadState,
    error: string | null,
    event?: NewEvent,
  ): Promise<void> {
    this.db
      .transaction(() => {
        this.sql("UPDATE threads SET status = ?, error = ?, updated_at = ? WHERE id = ?").run(
          status,
          error,
          now(),
          threadId,
        );
        if (event !== undefined) this.insertEvent(threadId, event);
      })
      .immediate();
  }

  async assign(threadId: string, reviewer: string): Promise<void> {
    this.sql("INSERT OR IGNORE INTO assignments (thread_id, reviewer) VALUES (?, ?)").run(
      threadId,
      reviewer,
    );
  }

  async assignees(threadId: string): Promise<string[]> {
    return this.sql("SELECT reviewer FROM assignments WHERE thread_id = ? ORDER BY reviewer")
      .all(threadId)
      .map((r) => (r as { reviewer: string }).reviewer);
  }

  async isAssigned(threadId: string, reviewer: string): Promise<boolean> {
    const row = this.sql("SELECT 1 FROM assignments WHERE thread_id = ? AND reviewer = ?").get(
      threadId,
      reviewer,
    );
    return row !== undefined;
  }

  async pendingOf(threadId: string) {
    return this.sql("SELECT * FROM pending_reviews WHERE thread_id = ? ORDER BY created_at")
      .all(threadId)
      .map(pendingOf);
  }

  async listPending(query: PendingQuery) {
    const { sql, params } = pendingPageQuery(query);
    return this.sql(sql)
      .all(...params)
      .map(pendingOf);
  }

  async recordDecision(
    decision: NewDecision,
    labels: readonly CalibrationLabel[] = [],
  ): Promise<RecordDecisionResult> {
    return this.db
      .transaction((): RecordDecisionResult => {
        const removed = this.sql(
          "DELETE FROM pending_reviews WHERE thread_id = ? AND interrupt_id = ?",
        ).run(decision.threadId, decision.interruptId);
        const existing = this.sql(
          "SELECT * FROM decisions WHERE thread_id = ? AND interrupt_id = ?",
        ).get(decision.threadId, decision.interruptId);
        if (existing !== undefined)
          return { kind: "already_decided", decision: decisionOf(existing) };
        if (removed.changes === 0) return { kind: "not_pending" };
        this.sql(
          "INSERT INTO decisions (id, thread_id, interrupt_id, stage, reviewer, action, payload, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ).run(
          decision.id,
          decision.threadId,
          decision.interruptId,
          decision.stage,
          decision.reviewer,
          decision.action,
          JSON.stringify(decision.payload),
          decision.decidedAt,
        );
        this.insertLabels(labels);
        this.sql("UPDATE threads SET status = 'queued', updated_at = ? WHERE id = ?").run(
          now(),
          decision.threadId,
        );
        this.insertEvent(decision.threadId, {
          type: "queued",
          stage: decision.stage,
          message: `${decision.reviewer}: ${decision.action}`,
        });
        return { kind: "recorded", decision: { ...decision, appliedAt: null, refusedAt: null } };
      })
      .immediate();
  }

  async decisionFor(threadId: string, interruptId: string) {
    const row = this.sql("SELECT * FROM decisions WHERE thread_id = ? AND interrupt_id = ?").get(
      threadId,
      interruptId,
    );
    return row === undefined ? undefined : decisionOf(row);
  }

  async decisionsOf(threadId: string) {
    return this.sql("SELECT * FROM decisions WHERE thread_id = ? ORDER BY decided_at, id")
      .all(threadId)
      .map(decisionOf);
  }

  async unappliedDecisions(threadId: string) {
    return this.sql(
      "SELECT * FROM decisions WHERE thread_id = ? AND applied_at IS NULL AND refused_at IS NULL ORDER BY decided_at, id",
    )
      .all(threadId)
      .map(decisionOf);
  }

  async settleThread(threadId: string, settlement: ThreadSettlement): Promise<void> {
    const at = now();
    this.db
      .transaction(() => {
        this.sql("UPDATE threads SET status = ?, error = ?, updated_at = ? WHERE id = ?").run(
          settlement.status,
          settlement.error ?? null,
          at,
          threadId,
        );
        this.sql("DELETE FROM pending_reviews WHERE thread_id = ?").run(threadId);
        const insert = this.sql(
          `INSERT INTO pending_reviews (${PENDING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT graph FROM threads WHERE id = ?))`,
        );
        for (const row of settlement.pending)
          insert.run(...pendingValues(row, "integer"), row.threadId);
        const mark = this.sql(
          "UPDATE decisions SET applied_at = ? WHERE id = ? AND applied_at IS NULL",
        );
        for (const id of settlement.applied) mark.run(at, id);
        const refuse = this.sql("UPDATE decisions SET refused_at = ?, refusal = ? WHERE id = ?");
        const unlabel = this.sql("DELETE FROM calibration_labels WHERE decision_id = ?");
        for (const r of settlement.refused ?? []) {
          refuse.run(at, r.reason, r.id);
          unlabel.run(r.id);
        }
        for (const event of settlement.events) this.insertEvent(threadId, event);
      })
      .immediate();
  }

  async addEvent(threadId: string, event: NewEvent): Promise<void> {
    this.insertEvent(threadId, event);
  }

  async threadsNeedingWork(updatedBefore: string): Promise<string[]> {
    return this.sql(
      `SELECT id FROM threads
       WHERE status IN ('queued', 'running') AND updated_at < @before AND graph = @graph
       UNION SELECT d.thread_id FROM decisions d JOIN threads t ON t.id = d.thread_id
       WHERE d.applied_at IS NULL AND d.refused_at IS NULL AND t.status <> 'failed'
         AND t.updated_at < @before
         AND t.graph = @graph`,
    )
      .all({ before: updatedBefore, graph: DESK_GRAPH })
      .map((r) => (r as { id: string }).id);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
