/** The review store, written once over the dialect layer: threads, reviews, decisions. */
import { sql } from "kysely";
import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import { openMigratedPostgres, openMigratedSqlite } from "./connections.js";
import { now, type Step, type StoreDatabase, type Transaction } from "./database.js";
import { eventInsert, insertLabels, lockThreadRow, ReviewTables } from "./reviewTables.js";
import {
  decisionOf,
  pendingInsert,
  pendingOf,
  pendingPageQuery,
  threadListRowOf,
  threadOf,
  threadPageQuery,
} from "./rows.js";
import { upsertRunSettings } from "./runSettingsRows.js";
import type { NewEvent } from "./threadEvents.js";
import {
  DESK_GRAPH,
  type DecisionRow,
  type NewDecision,
  type NewThread,
  type PendingQuery,
  type PendingRow,
  type RecordDecisionResult,
  type SettleOutcome,
  type ThreadListQuery,
  type ThreadSettlement,
  type ThreadState,
} from "./types.js";

function assignment(threadId: string, reviewer: string) {
  return sql`INSERT INTO assignments (thread_id, reviewer) VALUES (${threadId}, ${reviewer})
             ON CONFLICT DO NOTHING`;
}

/** The steps of a thread's settlement that read before they write. */

export function* decisionsOn(
  tx: Transaction,
  threadId: string,
  interruptIds: readonly string[],
): Step<DecisionRow[]> {
  const rows = yield* tx.all(
    sql`SELECT * FROM decisions
        WHERE thread_id = ${threadId} AND interrupt_id IN (${sql.join(interruptIds)})`,
  );
  return rows.map(decisionOf);
}

export function* pendingInterrupts(tx: Transaction, threadId: string): Step<string[]> {
  const rows = yield* tx.all(
    sql`SELECT interrupt_id FROM pending_reviews WHERE thread_id = ${threadId}`,
  );
  return rows.map((row) => String((row as { interrupt_id: unknown }).interrupt_id));
}

/** Whether the index lists exactly the reviews of `rows` (in any order). */
export function sameInterrupts(listed: readonly string[], rows: readonly PendingRow[]): boolean {
  const wanted = new Set(rows.map((row) => row.interruptId));
  return listed.length === wanted.size && listed.every((id) => wanted.has(id));
}

export function* markDecisions(
  tx: Transaction,
  settlement: ThreadSettlement,
  at: string,
): Step<void> {
  if (settlement.applied.length > 0) {
    yield* tx.run(
      sql`UPDATE decisions SET applied_at = ${at}
          WHERE id IN (${sql.join(settlement.applied)}) AND applied_at IS NULL`,
    );
  }
  for (const refused of settlement.refused ?? []) {
    yield* tx.run(
      sql`UPDATE decisions SET refused_at = ${at}, refusal = ${refused.reason}
          WHERE id = ${refused.id}`,
    );
    yield* tx.run(sql`DELETE FROM calibration_labels WHERE decision_id = ${refused.id}`);
  }
}

/** The review store: threads, pending reviews, decisions (each applied once), reviewers, labels. */
export type ReviewStore = SqlReviewStore;

export class SqlReviewStore extends ReviewTables {
  protected constructor(db: StoreDatabase) {
    super(db);
  }

  async createThread(thread: NewThread, event: NewEvent): Promise<void> {
    const at = now();
    const settings = JSON.stringify(thread.settings);
    await this.db.transaction(function* (tx) {
      yield* tx.run(
        sql`INSERT INTO threads (id, graph, title, creator, status, created_at, updated_at, settings)
            VALUES (${thread.id}, ${thread.graph ?? DESK_GRAPH}, ${thread.title}, ${thread.creator},
              ${thread.status}, ${at}, ${at}, ${settings})`,
      );
      yield* tx.run(assignment(thread.id, thread.creator));
      yield* tx.run(eventInsert(thread.id, event));
      if (thread.runSettings !== undefined) {
        yield* tx.run(upsertRunSettings(thread.id, thread.runSettings));
      }
    });
  }

  async thread(threadId: string) {
    const row = await this.db.first(sql`SELECT * FROM threads WHERE id = ${threadId}`);
    return row === undefined ? undefined : threadOf(row);
  }

  async setThreadStatus(
    threadId: string,
    status: ThreadState,
    error: string | null,
    event?: NewEvent,
  ): Promise<void> {
    await this.db.transaction(function* (tx) {
      // A status lost with the database server is only a thread shown one step behind.
      yield* tx.commitWithoutFlush();
      yield* tx.run(
        sql`UPDATE threads SET status = ${status}, error = ${error}, updated_at = ${now()}
            WHERE id = ${threadId}`,
      );
      if (event !== undefined) yield* tx.run(eventInsert(threadId, event));
    });
  }

  async assign(threadId: string, reviewer: string): Promise<void> {
    await this.db.run(assignment(threadId, reviewer));
  }

  async assignees(threadId: string): Promise<string[]> {
    const rows = await this.db.all(
      sql`SELECT reviewer FROM assignments WHERE thread_id = ${threadId} ORDER BY reviewer`,
    );
    return rows.map((r) => String((r as { reviewer: unknown }).reviewer));
  }

  async isAssigned(threadId: string, reviewer: string): Promise<boolean> {
    const row = await this.db.first(
      sql`SELECT 1 AS assigned FROM assignments
          WHERE thread_id = ${threadId} AND reviewer = ${reviewer}`,
    );
    return row !== undefined;
  }

  async listThreads(query: ThreadListQuery) {
    return (await this.db.all(threadPageQuery(query))).map(threadListRowOf);
  }

  async pendingOf(threadId: string) {
    const rows = await this.db.all(
      sql`SELECT * FROM pending_reviews WHERE thread_id = ${threadId} ORDER BY created_at`,
    );
    return rows.map(pendingOf);
  }

  async listPending(query: PendingQuery) {
    return (await this.db.all(pendingPageQuery(query))).map(pendingOf);
  }

  async recordDecision(
    decision: NewDecision,
    labels: readonly CalibrationLabel[] = [],
  ): Promise<RecordDecisionResult> {
    const { threadId, interruptId } = decision;
    return this.db.transaction(function* (tx) {
      // The thread's row first (the lock order of every transaction on a thread).
      yield* lockThreadRow(tx, threadId);
      const removed = yield* tx.run(
        sql`DELETE FROM pending_reviews
            WHERE thread_id = ${threadId} AND interrupt_id = ${interruptId}`,
      );
      const existing = yield* tx.first(
        sql`SELECT * FROM decisions WHERE thread_id = ${threadId} AND interrupt_id = ${interruptId}`,
      );
      if (existing !== undefined)
        return { kind: "already_decided", decision: decisionOf(existing) };
      if (removed === 0) return { kind: "not_pending" };
      yield* tx.run(
        sql`INSERT INTO decisions
              (id, thread_id, interrupt_id, stage, reviewer, action, payload, decided_at)
            VALUES (${decision.id}, ${threadId}, ${interruptId}, ${decision.stage},
              ${decision.reviewer}, ${decision.action}, ${JSON.stringify(decision.payload)},
              ${decision.decidedAt})`,
      );
      yield* insertLabels(tx, labels);
      yield* tx.run(
        sql`UPDATE threads SET status = 'queued', updated_at = ${now()} WHERE id = ${threadId}`,
      );
      yield* tx.run(
        eventInsert(threadId, {
          type: "queued",
          stage: decision.stage,
          message: `${decision.reviewer}: ${decision.action}`,
        }),
      );
      return { kind: "recorded", decision: { ...decision, appliedAt: null, refusedAt: null } };
    });
  }

  async decisionFor(threadId: string, interruptId: string) {
    const row = await this.db.first(
      sql`SELECT * FROM decisions WHERE thread_id = ${threadId} AND interrupt_id = ${interruptId}`,
    );
    return row === undefined ? undefined : decisionOf(row);
  }

  async decisionsOf(threadId: string) {
    const rows = await this.db.all(
      sql`SELECT * FROM decisions WHERE thread_id = ${threadId} ORDER BY decided_at, id`,
    );
    return rows.map(decisionOf);
  }

  async unappliedDecisions(threadId: string) {
    const rows = await this.db.all(
      sql`SELECT * FROM decisions
          WHERE thread_id = ${threadId} AND applied_at IS NULL AND refused_at IS NULL
          ORDER BY decided_at, id`,
    );
    return rows.map(decisionOf);
  }

  /**
   * Under the thread's row lock: a stop settled already is left as it is (`unchanged`); a review
   * decided in the meantime is never put back, and when its decision is not applied yet nothing is
   * written (`decided`: the caller applies it first).
   */
  async settleThread(threadId: string, settlement: ThreadSettlement): Promise<SettleOutcome> {
    const at = now();
    const interrupts = settlement.pending.map((row) => row.interruptId);
    return this.db.transaction(function* (tx) {
      const current = yield* lockThreadRow(tx, threadId);
      const decided = interrupts.length === 0 ? [] : yield* decisionsOn(tx, threadId, interrupts);
      const arrived = decided.filter(
        (d) => d.appliedAt === null && d.refusedAt === null && !settlement.applied.includes(d.id),
      );
      if (arrived.length > 0) return "decided";
      const pending = settlement.pending.filter(
        (row) => !decided.some((d) => d.interruptId === row.interruptId),
      );
      const same =
        current?.status === settlement.status &&
        (settlement.status === "waiting" || settlement.status === "finished") &&
        sameInterrupts(yield* pendingInterrupts(tx, threadId), pending);
      if (!same) {
        yield* tx.run(
          sql`UPDATE threads SET status = ${settlement.status}, error = ${settlement.error ?? null},
              updated_at = ${at} WHERE id = ${threadId}`,
        );
        yield* tx.run(sql`DELETE FROM pending_reviews WHERE thread_id = ${threadId}`);
        for (const row of pending) yield* tx.run(pendingInsert(row, tx.bool));
      }
      yield* markDecisions(tx, settlement, at);
      if (!same) for (const event of settlement.events) yield* tx.run(eventInsert(threadId, event));
      return same ? "unchanged" : "settled";
    });
  }

  async addEvent(threadId: string, event: NewEvent): Promise<void> {
    // Where a thread ended is written by the settlement, which waits for the disk.
    await this.db.transaction(function* (tx) {
      yield* tx.commitWithoutFlush();
      yield* tx.run(eventInsert(threadId, event));
    });
  }

  async threadsNeedingWork(updatedBefore: string): Promise<string[]> {
    const rows = await this.db.all(
      sql`SELECT id FROM threads
          WHERE status IN ('queued', 'running') AND updated_at < ${updatedBefore}
            AND graph = ${DESK_GRAPH}
          UNION SELECT d.thread_id FROM decisions d JOIN threads t ON t.id = d.thread_id
          WHERE d.applied_at IS NULL AND d.refused_at IS NULL AND t.status <> 'failed'
            AND t.updated_at < ${updatedBefore} AND t.graph = ${DESK_GRAPH}`,
    );
    return rows.map((r) => String((r as { id: unknown }).id));
  }
}

/** On SQLite, in the checkpoints' file; a thread's lock is a row naming its live process. */
export class SqliteReviewStore extends SqlReviewStore {
  static async open(path: string): Promise<SqliteReviewStore> {
    return new SqliteReviewStore(await openMigratedSqlite(path));
  }
}

/** On PostgreSQL, shared by any number of replicas (migrations under an advisory lock). */
export class PostgresReviewStore extends SqlReviewStore {
  static async open(url: string, poolSize = 10): Promise<PostgresReviewStore> {
    return new PostgresReviewStore(await openMigratedPostgres(url, poolSize));
  }
}
