/** The reviewer side of the review store: reviewers, sessions, labels, events, locks, retries. */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { z } from "zod";
import type {
  CalibrationMeasurement,
  NewCalibrationMeasurement,
} from "../calibration/reportModel.js";
import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import {
  type AttemptCount,
  attemptCountOf,
  attemptsQuery,
  countAttemptQuery,
  pruneAttemptsQuery,
} from "./attemptRows.js";
import { now, type Step, type StoreDatabase, type Transaction } from "./database.js";
import { reviewerExists } from "./errors.js";
import {
  type CalibrationLabelQuery,
  type CorrectionLabelQuery,
  correctionLabelsQuery,
  insertLabelsQuery,
  labelOf,
  labelPageQuery,
} from "./labelRows.js";
import { insertMeasurement, LATEST_MEASUREMENT, measurementOf } from "./measurementRows.js";
import { type ReviewerRole, ReviewerSchema } from "./reviewers.js";
import { eventOf, retryMessage, reviewerOf } from "./rows.js";
import {
  insertMissingRunSettings,
  runSettingsOf,
  type StoredRunSettings,
  selectRunSettings,
  upsertRunSettings,
} from "./runSettingsRows.js";
import type { NewEvent } from "./threadEvents.js";
import type { ThreadLease } from "./threadLocks.js";
import { tryLockThread } from "./threadLocks.js";
import { hashToken } from "./tokens.js";
import type { NewSession } from "./types.js";

/** At most this many labels go into one INSERT (21 values each). */
const LABELS_PER_INSERT = 100;

const SetAsideColumns = z.array(z.object({ reviewer: z.string(), action: z.string() }));

export function eventInsert(threadId: string, event: NewEvent) {
  return sql`INSERT INTO thread_events (thread_id, type, stage, message, at)
    VALUES (${threadId}, ${event.type}, ${event.stage ?? null}, ${event.message ?? null}, ${now()})`;
}

const ThreadStatusColumns = z.object({ status: z.string() });

/**
 * The first step of every transaction that changes a thread and its reviews, so two of them on
 * one thread queue in one order and never deadlock (`FOR NO KEY UPDATE`: rows referring to the
 * thread do not wait for it; SQLite's BEGIN IMMEDIATE holds the write lock already).
 */
export function* lockThreadRow(
  tx: Transaction,
  threadId: string,
): Step<{ status: string } | undefined> {
  const row = yield* tx.first(
    tx.dialect === "postgres"
      ? sql`SELECT status FROM threads WHERE id = ${threadId} FOR NO KEY UPDATE`
      : sql`SELECT status FROM threads WHERE id = ${threadId}`,
  );
  return row === undefined ? undefined : ThreadStatusColumns.parse(row);
}

export function* insertLabels(tx: Transaction, labels: readonly CalibrationLabel[]): Step<void> {
  for (let start = 0; start < labels.length; start += LABELS_PER_INSERT) {
    const chunk = labels.slice(start, start + LABELS_PER_INSERT);
    yield* tx.run(insertLabelsQuery(chunk, tx.bool));
  }
}

export class ReviewTables {
  protected constructor(protected readonly db: StoreDatabase) {}

  sqliteConnection(): unknown {
    return this.db.native.dialect === "sqlite" ? this.db.native.db : undefined;
  }

  get kind(): "sqlite" | "postgres" {
    return this.db.dialect;
  }

  async addCalibrationLabels(labels: readonly CalibrationLabel[]): Promise<void> {
    await this.db.transaction((tx) => insertLabels(tx, labels));
  }

  async calibrationLabels(query: CalibrationLabelQuery = {}): Promise<CalibrationLabel[]> {
    return (await this.db.all(labelPageQuery(query))).map(labelOf);
  }

  async correctionLabels(query: CorrectionLabelQuery): Promise<CalibrationLabel[]> {
    return (await this.db.all(correctionLabelsQuery(query))).map(labelOf);
  }

  async recordCalibrationMeasurement(
    measurement: NewCalibrationMeasurement,
  ): Promise<CalibrationMeasurement> {
    const insert = insertMeasurement(randomUUID(), measurement);
    await this.db.run(insert.statement);
    return insert.measurement;
  }

  async latestCalibrationMeasurement(): Promise<CalibrationMeasurement | undefined> {
    const [row] = await this.db.all(LATEST_MEASUREMENT);
    return row === undefined ? undefined : measurementOf(row);
  }

  async labelsFor(threadId: string): Promise<CalibrationLabel[]> {
    const rows = await this.db.all(
      sql`SELECT * FROM calibration_labels WHERE thread_id = ${threadId}
          ORDER BY decided_at, decision_id, criterion_id`,
    );
    return rows.map(labelOf);
  }

  async runSettings(threadId: string): Promise<StoredRunSettings | undefined> {
    return runSettingsOf(await this.db.first(selectRunSettings(threadId)));
  }

  async saveRunSettings(threadId: string, settings: StoredRunSettings): Promise<void> {
    await this.db.run(upsertRunSettings(threadId, settings));
  }

  async importRunSettings(
    entries: ReadonlyArray<readonly [string, StoredRunSettings]>,
  ): Promise<number> {
    return this.db.transaction(function* (tx) {
      let added = 0;
      for (const [threadId, settings] of entries) {
        added += yield* tx.run(insertMissingRunSettings(threadId, settings));
      }
      return added;
    });
  }

  async eventsAfter(threadId: string, afterSeq: number, limit: number) {
    const rows = await this.db.all(
      sql`SELECT * FROM thread_events WHERE thread_id = ${threadId} AND seq > ${afterSeq}
          ORDER BY seq LIMIT ${limit}`,
    );
    return rows.map(eventOf);
  }

  async addReviewer(name: string, role: ReviewerRole, tokenHash: string): Promise<void> {
    const added = await this.db.run(
      sql`INSERT INTO reviewers (name, role, token_hash, created_at)
          VALUES (${name}, ${role}, ${tokenHash}, ${now()}) ON CONFLICT (name) DO NOTHING`,
    );
    if (added === 0) throw reviewerExists(name);
  }

  async reviewers() {
    return (await this.db.all(sql`SELECT * FROM reviewers ORDER BY name`)).map(reviewerOf);
  }

  async revokeReviewer(name: string): Promise<boolean> {
    const revoked = await this.db.run(
      sql`UPDATE reviewers SET revoked_at = ${now()} WHERE name = ${name} AND revoked_at IS NULL`,
    );
    return revoked > 0;
  }

  async reviewerByTokenHash(tokenHash: string) {
    const row = await this.db.first(
      sql`SELECT * FROM reviewers WHERE token_hash = ${tokenHash} AND revoked_at IS NULL`,
    );
    return row === undefined ? undefined : ReviewerSchema.parse(reviewerOf(row));
  }

  async reviewerByName(name: string) {
    const row = await this.db.first(sql`SELECT * FROM reviewers WHERE name = ${name}`);
    return row === undefined ? undefined : reviewerOf(row);
  }

  // Times are ISO-8601 UTC strings, compared as text.
  async openSession(session: NewSession, at: string): Promise<void> {
    await this.db.transaction(function* (tx) {
      yield* tx.run(sql`DELETE FROM review_sessions WHERE expires_at <= ${at}`);
      yield* tx.run(
        sql`INSERT INTO review_sessions (id_hash, reviewer, created_at, expires_at)
            VALUES (${session.idHash}, ${session.reviewer}, ${at}, ${session.expiresAt})`,
      );
    });
  }

  async sessionReviewer(idHash: string, at: string) {
    const row = await this.db.first(
      sql`SELECT r.* FROM review_sessions s JOIN reviewers r ON r.name = s.reviewer
          WHERE s.id_hash = ${idHash} AND s.ended_at IS NULL AND s.expires_at > ${at}
            AND r.revoked_at IS NULL`,
    );
    return row === undefined ? undefined : ReviewerSchema.parse(reviewerOf(row));
  }

  async endSession(idHash: string, at: string): Promise<boolean> {
    const ended = await this.db.run(
      sql`UPDATE review_sessions SET ended_at = ${at} WHERE id_hash = ${idHash} AND ended_at IS NULL`,
    );
    return ended > 0;
  }

  async countAttempt(key: string, windowSeconds: number, at: Date): Promise<AttemptCount> {
    const hash = hashToken(key);
    const now = at.toISOString();
    const ends = new Date(at.getTime() + windowSeconds * 1000).toISOString();
    return this.db.transaction(function* (tx) {
      yield* tx.run(pruneAttemptsQuery(now));
      return attemptCountOf(yield* tx.first(countAttemptQuery(hash, ends, now)));
    });
  }

  async attemptsOf(key: string, at: Date): Promise<AttemptCount | undefined> {
    const row = await this.db.first(attemptsQuery(hashToken(key), at.toISOString()));
    return row === undefined ? undefined : attemptCountOf(row);
  }

  tryLockThread(threadId: string): Promise<ThreadLease | undefined> {
    return tryLockThread(this.db, threadId);
  }

  /** Whether a job (in any process) holds the thread now. */
  async threadLocked(threadId: string): Promise<boolean> {
    const lease = await tryLockThread(this.db, threadId);
    await lease?.release();
    return lease === undefined;
  }

  async retryThread(threadId: string, by: string): Promise<boolean> {
    return this.db.transaction(function* (tx) {
      yield* lockThreadRow(tx, threadId);
      const queued = yield* tx.run(
        sql`UPDATE threads SET status = 'queued', error = NULL, updated_at = ${now()}
            WHERE id = ${threadId} AND status = 'failed'`,
      );
      if (queued === 0) return false;
      // A refused decision never took effect: its labels are not labels.
      yield* tx.run(
        sql`DELETE FROM calibration_labels WHERE decision_id IN
              (SELECT id FROM decisions WHERE thread_id = ${threadId} AND refused_at IS NOT NULL)`,
      );
      const aside = yield* tx.all(
        sql`DELETE FROM decisions WHERE thread_id = ${threadId} AND refused_at IS NOT NULL
            RETURNING reviewer, action`,
      );
      const message = retryMessage(by, SetAsideColumns.parse(aside));
      yield* tx.run(eventInsert(threadId, { type: "queued", message }));
      return true;
    });
  }

  ping(): Promise<boolean> {
    return this.db.ping();
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
