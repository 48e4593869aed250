/**
 * The reviewer and lock side of the PostgreSQL review store (postgresStore.ts builds on this):
 * reviewers with hashed tokens, and per-thread session advisory locks.
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { ReviewerRole } from "../orchestrator/reviewDesk.js";
import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import { ReviewerExistsError } from "./errors.js";
import {
  type CalibrationLabelQuery,
  type CorrectionLabelQuery,
  correctionLabelsQuery,
  insertLabelsSql,
  labelOf,
  labelPageQuery,
  labelValues,
  REFUSED_LABELS_SQL,
  THREAD_LABELS_SQL,
} from "./labelRows.js";
import { eventOf, retryMessage, reviewerOf } from "./rows.js";
import {
  END_SESSION_SQL,
  INSERT_SESSION_SQL,
  PRUNE_SESSIONS_SQL,
  SESSION_REVIEWER_SQL,
  sessionReviewerOf,
} from "./sessionRows.js";
import type { NewEvent, NewSession, ThreadLease } from "./types.js";

export const now = () => new Date().toISOString();
export type Queryable = pg.Pool | pg.PoolClient;

export function insertEvent(db: Queryable, threadId: string, event: NewEvent) {
  return db.query(
    "INSERT INTO thread_events (thread_id, type, stage, message, at) VALUES ($1, $2, $3, $4, $5)",
    [threadId, event.type, event.stage ?? null, event.message ?? null, now()],
  );
}

/** `?` placeholders as `$1`, `$2`, … */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** Inserts labels on the connection (the caller's transaction), 100 rows a statement. */
export async function insertLabels(db: Queryable, labels: readonly CalibrationLabel[]) {
  for (let start = 0; start < labels.length; start += 100) {
    const chunk = labels.slice(start, start + 100);
    await db.query(
      insertLabelsSql(chunk.length, (n) => `$${n}`),
      chunk.flatMap((label) => labelValues(label, "boolean")),
    );
  }
}

export class PostgresTables {
  protected constructor(protected readonly pool: pg.Pool) {}

  async retryThread(threadId: string, by: string): Promise<boolean> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const queued = await client.query(
        "UPDATE threads SET status = 'queued', error = NULL, updated_at = $1 WHERE id = $2 AND status = 'failed'",
        [now(), threadId],
      );
      if (queued.rowCount === 0) {
        await client.query("ROLLBACK");
        return false;
      }
      await client.query(numbered(REFUSED_LABELS_SQL), [threadId]);
      const aside = await client.query<{ reviewer: string; action: string }>(
        "DELETE FROM decisions WHERE thread_id = $1 AND refused_at IS NOT NULL RETURNING reviewer, action",
        [threadId],
      );
      await insertEvent(client, threadId, {
        type: "queued",
        message: retryMessage(by, aside.rows),
      });
      await client.query("COMMIT");
      return true;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async addCalibrationLabels(labels: readonly CalibrationLabel[]): Promise<void> {
    await insertLabels(this.pool, labels);
  }

  async calibrationLabels(query: CalibrationLabelQuery = {}): Promise<CalibrationLabel[]> {
    const { sql, params } = labelPageQuery(query);
    const { rows } = await this.pool.query(numbered(sql), params);
    return rows.map(labelOf);
  }

  async correctionLabels(query: CorrectionLabelQuery): Promise<CalibrationLabel[]> {
    const { sql, params } = correctionLabelsQuery(query);
    const { rows } = await this.pool.query(numbered(sql), params);
    return rows.map(labelOf);
  }

  async labelsFor(threadId: string): Promise<CalibrationLabel[]> {
    const { rows } = await this.pool.query(numbered(THREAD_LABELS_SQL), [threadId]);
    return rows.map(labelOf);
  }

  async eventsAfter(threadId: string, afterSeq: number, limit: number) {
    const { rows } = await this.pool.query(
      "SELECT * FROM thread_events WHERE thread_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
      [threadId, afterSeq, limit],
    );
    return rows.map(eventOf);
  }

  async addReviewer(name: string, role: ReviewerRole, tokenHash: string): Promise<void> {
    const result = await this.pool.query(
      "INSERT INTO reviewers (name, role, token_hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING",
      [name, role, tokenHash, now()],
    );
    if (result.rowCount === 0) throw new ReviewerExistsError(name);
  }

  async reviewers() {
    return (await this.pool.query("SELECT * FROM reviewers ORDER BY name")).rows.map(reviewerOf);
  }

  async revokeReviewer(name: string): Promise<boolean> {
    const result = await this.pool.query(
      "UPDATE reviewers SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL",
      [now(), name],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async reviewerByTokenHash(tokenHash: string) {
    const { rows } = await this.pool.query(
      "SELECT * FROM reviewers WHERE token_hash = $1 AND revoked_at IS NULL",
      [tokenHash],
    );
    if (rows[0] === undefined) return undefined;
    const reviewer = reviewerOf(rows[0]);
    return { name: reviewer.name, role: reviewer.role };
  }

  async reviewerByName(name: string) {
    const { rows } = await this.pool.query("SELECT * FROM reviewers WHERE name = $1", [name]);
    return rows[0] === undefined ? undefined : reviewerOf(rows[0]);
  }

  async openSession(session: NewSession, at: string): Promise<void> {
    await this.pool.query(numbered(PRUNE_SESSIONS_SQL), [at]);
    await this.pool.query(numbered(INSERT_SESSION_SQL), [
      session.idHash,
      session.reviewer,
      at,
      session.expiresAt,
    ]);
  }

  async sessionReviewer(idHash: string, at: string) {
    const { rows } = await this.pool.query(numbered(SESSION_REVIEWER_SQL), [idHash, at]);
    return sessionReviewerOf(rows[0]);
  }

  async endSession(idHash: string, at: string): Promise<boolean> {
    const result = await this.pool.query(numbered(END_SESSION_SQL), [at, idHash]);
    return (result.rowCount ?? 0) > 0;
  }

  async tryLockThread(threadId: string): Promise<ThreadLease | undefined> {
    const client = await this.pool.connect();
    const key = `evalgate-thread:${threadId}`;
    try {
      const { rows } = await client.query<{ taken: boolean }>(
        "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS taken",
        [key],
      );
      if (rows[0]?.taken !== true) {
        client.release();
        return undefined;
      }
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    const owner = randomUUID();
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        try {
          await client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key]);
          client.release();
        } catch (error) {
          // A broken connection: drop it, which ends the session and with it the lock.
          client.release(error instanceof Error ? error : new Error(`lock ${owner}`));
        }
      },
    };
  }

  async ping(): Promise<boolean> {
    try {
      await this.pool.query("SELECT 1");
      return true;
    } catch {
      return false;
    }
  }
}
