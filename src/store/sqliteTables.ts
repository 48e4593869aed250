/**
 * The reviewer and lock tables of the SQLite review store (sqliteStore.ts builds on this): the
 * statement cache, reviewers with hashed tokens, and per-thread locks held by a live process id.
 */
import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
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

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}

export class SqliteTables {
  private readonly statements = new Map<string, Database.Statement>();

  protected constructor(protected readonly db: Database.Database) {}

  protected sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (statement === undefined) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  protected insertEvent(threadId: string, event: NewEvent): void {
    this.sql(
      "INSERT INTO thread_events (thread_id, type, stage, message, at) VALUES (?, ?, ?, ?, ?)",
    ).run(threadId, event.type, event.stage ?? null, event.message ?? null, now());
  }

  /** Inserts labels (inside the caller's transaction, when there is one). */
  protected insertLabels(labels: readonly CalibrationLabel[]): void {
    const insert = this.sql(insertLabelsSql(1, () => "?"));
    for (const label of labels) insert.run(...labelValues(label, "integer"));
  }

  async addCalibrationLabels(labels: readonly CalibrationLabel[]): Promise<void> {
    this.db.transaction(() => this.insertLabels(labels)).immediate();
  }

  async calibrationLabels(query: CalibrationLabelQuery = {}): Promise<CalibrationLabel[]> {
    const { sql, params } = labelPageQuery(query);
    return this.sql(sql)
      .all(...params)
      .map(labelOf);
  }

  async correctionLabels(query: CorrectionLabelQuery): Promise<CalibrationLabel[]> {
    const { sql, params } = correctionLabelsQuery(query);
    return this.sql(sql)
      .all(...params)
      .map(labelOf);
  }

  async labelsFor(threadId: string): Promise<CalibrationLabel[]> {
    return this.sql(THREAD_LABELS_SQL).all(threadId).map(labelOf);
  }

  async eventsAfter(threadId: string, afterSeq: number, limit: number) {
    return this.sql(
      "SELECT * FROM thread_events WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?",
    )
      .all(threadId, afterSeq, limit)
      .map(eventOf);
  }

  async addReviewer(name: string, role: ReviewerRole, tokenHash: string): Promise<void> {
    const existing = this.sql("SELECT 1 FROM reviewers WHERE name = ?").get(name);
    if (existing !== undefined) throw new ReviewerExistsError(name);
    this.sql("INSERT INTO reviewers (name, role, token_hash, created_at) VALUES (?, ?, ?, ?)").run(
      name,
      role,
      tokenHash,
      now(),
    );
  }

  async reviewers() {
    return this.sql("SELECT * FROM reviewers ORDER BY name").all().map(reviewerOf);
  }

  async revokeReviewer(name: string): Promise<boolean> {
    const result = this.sql(
      "UPDATE reviewers SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
    ).run(now(), name);
    return result.changes > 0;
  }

  async reviewerByTokenHash(tokenHash: string) {
    const row = this.sql("SELECT * FROM reviewers WHERE token_hash = ? AND revoked_at IS NULL").get(
      tokenHash,
    );
    if (row === undefined) return undefined;
    const reviewer = reviewerOf(row);
    return { name: reviewer.name, role: reviewer.role };
  }

  async reviewerByName(name: string) {
    const row = this.sql("SELECT * FROM reviewers WHERE name = ?").get(name);
    return row === undefined ? undefined : reviewerOf(row);
  }

  async openSession(session: NewSession, at: string): Promise<void> {
    this.db
      .transaction(() => {
        this.sql(PRUNE_SESSIONS_SQL).run(at);
        this.sql(INSERT_SESSION_SQL).run(session.idHash, session.reviewer, at, session.expiresAt);
      })
      .immediate();
  }

  async sessionReviewer(idHash: string, at: string) {
    return sessionReviewerOf(this.sql(SESSION_REVIEWER_SQL).get(idHash, at));
  }

  async endSession(idHash: string, at: string): Promise<boolean> {
    return this.sql(END_SESSION_SQL).run(at, idHash).changes > 0;
  }

  async tryLockThread(threadId: string): Promise<ThreadLease | undefined> {
    const owner = randomUUID();
    const taken = this.db
      .transaction((): boolean => {
        const held = this.sql("SELECT owner, pid FROM thread_locks WHERE thread_id = ?").get(
          threadId,
        ) as { owner: string; pid: number } | undefined;
        if (held !== undefined && processAlive(held.pid)) return false;
        this.sql(
          "INSERT OR REPLACE INTO thread_locks (thread_id, owner, pid, acquired_at) VALUES (?, ?, ?, ?)",
        ).run(threadId, owner, process.pid, now());
        return true;
      })
      .immediate();
    if (!taken) return undefined;
    return {
      release: async () => {
        this.sql("DELETE FROM thread_locks WHERE thread_id = ? AND owner = ?").run(threadId, owner);
      },
    };
  }

  async retryThread(threadId: string, by: string): Promise<boolean> {
    return this.db
      .transaction((): boolean => {
        const queued = this.sql(
          "UPDATE threads SET status = 'queued', error = NULL, updated_at = ? WHERE id = ? AND status = 'failed'",
        ).run(now(), threadId);
        if (queued.changes === 0) return false;
        this.sql(REFUSED_LABELS_SQL).run(threadId);
        const aside = this.sql(
          "DELETE FROM decisions WHERE thread_id = ? AND refused_at IS NOT NULL RETURNING reviewer, action",
        ).all(threadId) as Array<{ reviewer: string; action: string }>;
        this.insertEvent(threadId, { type: "queued", message: retryMessage(by, aside) });
        return true;
      })
      .immediate();
  }

  async ping(): Promise<boolean> {
    try {
      return this.sql("SELECT 1 AS ok").get() !== undefined;
    } catch {
      return false;
    }
  }
}
