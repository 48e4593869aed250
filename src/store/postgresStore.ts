/**
 * The review store on PostgreSQL (pg), in the checkpoints' database, shared by any number of
 * replicas. Migrations run under an advisory lock, so replicas starting together do not race; a
 * thread's lock is a session advisory lock on a connection held while the job runs — a replica
 * that dies drops its connection, and with it the lock.
 */
import pg from "pg";
import { redactUrl } from "../orchestrator/checkpointer.js";
import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import { StoreOpenError } from "./errors.js";
import { MIGRATIONS, MIGRATIONS_TABLE } from "./migrations.js";
import { insertEvent, insertLabels, now, numbered, PostgresTables } from "./postgresTables.js";
import {
  decisionOf,
  PENDING_COLUMNS,
  pendingOf,
  pendingPageQuery,
  pendingValues,
  threadOf,
} from "./rows.js";
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

const MIGRATION_LOCK = 7_311_042_001;

export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export async function migrate(pool: pg.Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(MIGRATIONS_TABLE);
    const { rows } = await client.query<{ id: number }>("SELECT id FROM evalgate_migrations");
    const applied = new Set(rows.map((r) => r.id));
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.id)) continue;
      await client.query(migration.postgres);
      await client.query(
        "INSERT INTO evalgate_migrations (id, name, applied_at) VALUES ($1, $2, $3)",
        [migration.id, migration.name, now()],
      );
    }
  });
}

/**
 * A pool on the database at `url` with the store's schema brought up to date; a database that
 * cannot be reached or migrated is a StoreOpenError naming the address without its password.
 */
export async function openMigratedPool(url: string, poolSize: number): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on("error", () => undefined);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreOpenError(redactUrl(url), reason, { cause: error });
  }
  return pool;
}

export class PostgresReviewStore extends PostgresTables implements ReviewStore {
  readonly kind = "postgres";

  private constructor(pool: pg.Pool) {
    super(pool);
  }

  static async open(url: string, poolSize = 10): Promise<PostgresReviewStore> {
    const pool = await openMigratedPool(url, poolSize);
    return new PostgresReviewStore(pool);
  }

  async createThread(thread: NewThread, event: NewEvent): Promise<void> {
    const at = now();
    await inTransaction(this.pool, async (client) => {
      await client.query(
        "INSERT INTO threads (id, graph, title, creator, status, created_at, updated_at, settings) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        [
          thread.id,
          thread.graph ?? DESK_GRAPH,
          thread.title,
          thread.creator,
          thread.status,
          at,
          at,
          JSON.stringify(thread.settings),
        ],
      );
      await client.query(
        "INSERT INTO assignments (thread_id, reviewer) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        [thread.id, thread.creator],
      );
      await insertEvent(client, thread.id, event);
    });
  }

  async thread(threadId: string) {
    const { rows } = await this.pool.query("SELECT * FROM threads WHERE id = $1", [threadId]);
    return rows[0] === undefined ? undefined : threadOf(rows[0]);
  }

  async setThreadStatus(
    threadId: string,
    status: ThreadState,
    error: string | null,
    event?: NewEvent,
  ) {
    await inTransaction(this.pool, async (client) => {
      await client.query(
        "UPDATE threads SET status = $1, error = $2, updated_at = $3 WHERE id = $4",
        [status, error, now(), threadId],
      );
      if (event !== undefined) await insertEvent(client, threadId, event);
    });
  }

  async assign(threadId: string, reviewer: string): Promise<void> {
    await this.pool.query(
      "INSERT INTO assignments (thread_id, reviewer) VALUES ($1, $2) ON CONFLICT DO NOTHING",
      [threadId, reviewer],
    );
  }

  async assignees(threadId: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ reviewer: string }>(
      "SELECT reviewer FROM assignments WHERE thread_id = $1 ORDER BY reviewer",
      [threadId],
    );
    return rows.map((r) => r.reviewer);
  }

  async isAssigned(threadId: string, reviewer: string): Promise<boolean> {
    const { rows } = await this.pool.query(
      "SELECT 1 FROM assignments WHERE thread_id = $1 AND reviewer = $2",
      [threadId, reviewer],
    );
    return rows.length > 0;
  }

  async pendingOf(threadId: string) {
    const { rows } = await this.pool.query(
      "SELECT * FROM pending_reviews WHERE thread_id = $1 ORDER BY created_at",
      [threadId],
    );
    return rows.map(pendingOf);
  }

  async listPending(query: PendingQuery) {
    const { sql, params } = pendingPageQuery(query);
    const { rows } = await this.pool.query(numbered(sql), params);
    return rows.map(pendingOf);
  }

  async recordDecision(
    decision: NewDecision,
    labels: readonly CalibrationLabel[] = [],
  ): Promise<RecordDecisionResult> {
    return inTransaction(this.pool, async (client): Promise<RecordDecisionResult> => {
      const removed = await client.query(
        "DELETE FROM pending_reviews WHERE thread_id = $1 AND interrupt_id = $2",
        [decision.threadId, decision.interruptId],
      );
      const existing = await client.query(
        "SELECT * FROM decisions WHERE thread_id = $1 AND interrupt_id = $2",
        [decision.threadId, decision.interruptId],
      );
      if (existing.rows[0] !== undefined) {
        return { kind: "already_decided", decision: decisionOf(existing.rows[0]) };
      }
      if (removed.rowCount === 0) return { kind: "not_pending" };
      await client.query(
        "INSERT INTO decisions (id, thread_id, interrupt_id, stage, reviewer, action, payload, decided_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        [
          decision.id,
          decision.threadId,
          decision.interruptId,
          decision.stage,
          decision.reviewer,
          decision.action,
          JSON.stringify(decision.payload),
          decision.decidedAt,
        ],
      );
      await insertLabels(client, labels);
      await client.query("UPDATE threads SET status = 'queued', updated_at = $1 WHERE id = $2", [
        now(),
        decision.threadId,
      ]);
      await insertEvent(client, decision.threadId, {
        type: "queued",
        stage: decision.stage,
        message: `${decision.reviewer}: ${decision.action}`,
      });
      return { kind: "recorded", decision: { ...decision, appliedAt: null, refusedAt: null } };
    });
  }

  async decisionFor(threadId: string, interruptId: string) {
    const { rows } = await this.pool.query(
      "SELECT * FROM decisions WHERE thread_id = $1 AND interrupt_id = $2",
      [threadId, interruptId],
    );
    return rows[0] === undefined ? undefined : decisionOf(rows[0]);
  }

  async decisionsOf(threadId: string) {
    const { rows } = await this.pool.query(
      "SELECT * FROM decisions WHERE thread_id = $1 ORDER BY decided_at, id",
      [threadId],
    );
    return rows.map(decisionOf);
  }

  async unappliedDecisions(threadId: string) {
    const { rows } = await this.pool.query(
      "SELECT * FROM decisions WHERE thread_id = $1 AND applied_at IS NULL AND refused_at IS NULL ORDER BY decided_at, id",
      [threadId],
    );
    return rows.map(decisionOf);
  }

  async settleThread(threadId: string, settlement: ThreadSettlement): Promise<void> {
    const at = now();
    await inTransaction(this.pool, async (client) => {
      await client.query(
        "UPDATE threads SET status = $1, error = $2, updated_at = $3 WHERE id = $4",
        [settlement.status, settlement.error ?? null, at, threadId],
      );
      await client.query("DELETE FROM pending_reviews WHERE thread_id = $1", [threadId]);
      for (const p of settlement.pending) {
        await client.query(
          `INSERT INTO pending_reviews (${PENDING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, (SELECT graph FROM threads WHERE id = $1))`,
          pendingValues(p, "boolean"),
        );
      }
      if (settlement.applied.length > 0) {
        await client.query(
          "UPDATE decisions SET applied_at = $1 WHERE id = ANY($2) AND applied_at IS NULL",
          [at, settlement.applied],
        );
      }
      for (const r of settlement.refused ?? []) {
        await client.query("UPDATE decisions SET refused_at = $1, refusal = $2 WHERE id = $3", [
          at,
          r.reason,
          r.id,
        ]);
        await client.query("DELETE FROM calibration_labels WHERE decision_id = $1", [r.id]);
      }
      for (const event of settlement.events) await insertEvent(client, threadId, event);
    });
  }

  async addEvent(threadId: string, event: NewEvent): Promise<void> {
    await insertEvent(this.pool, threadId, event);
  }

  async threadsNeedingWork(updatedBefore: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM threads
       WHERE status IN ('queued', 'running') AND updated_at < $1 AND graph = $2
       UNION SELECT d.thread_id FROM decisions d JOIN threads t ON t.id = d.thread_id
       WHERE d.applied_at IS NULL AND d.refused_at IS NULL AND t.status <> 'failed'
         AND t.updated_at < $1
         AND t.graph = $2`,
      [updatedBefore, DESK_GRAPH],
    );
    return rows.map((r) => r.id);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
