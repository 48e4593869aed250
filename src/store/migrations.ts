/**
 * The store's schema for both databases, applied in order by migrate(). A migration never
 * changes once released. Times are ISO-8601 UTC strings, so they sort and compare as text.
 */
import type { SchemaWords } from "./database.js";

export interface Migration {
  id: number;
  name: string;
  statements(words: SchemaWords): string;
}

const same = (sql: string) => ({ statements: () => sql });

/** Made by the migrations, or beside a graph's checkpoints. */
export const JUDGE_CACHE_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS judge_cache (
    key TEXT PRIMARY KEY,
    answer TEXT NOT NULL,
    model TEXT NOT NULL,
    purpose TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS judge_cache_created ON judge_cache (created_at);`;

/** Made by the migrations, or beside a graph's checkpoints by the trace store itself. */
export const traceTablesSql = (words: SchemaWords) => `
  CREATE TABLE IF NOT EXISTS evalgate_evaluation_traces (
    evaluation_id TEXT PRIMARY KEY,
    thread_id TEXT,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS evalgate_evaluation_traces_thread
    ON evalgate_evaluation_traces (thread_id, created_at);
  CREATE TABLE IF NOT EXISTS evalgate_trace_blobs (
    hash TEXT PRIMARY KEY,
    text TEXT NOT NULL
  )${words.keyValueTable};`;

export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: "reviewers",
    ...same(`
      CREATE TABLE reviewers (
        name TEXT PRIMARY KEY,
        role TEXT NOT NULL CHECK (role IN ('reviewer', 'admin')),
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );`),
  },
  {
    id: 2,
    name: "threads and assignments",
    ...same(`
      CREATE TABLE threads (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        creator TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        settings TEXT NOT NULL,
        error TEXT
      );
      CREATE INDEX threads_status ON threads (status);
      CREATE TABLE assignments (
        thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        reviewer TEXT NOT NULL,
        PRIMARY KEY (thread_id, reviewer)
      );
      CREATE INDEX assignments_reviewer ON assignments (reviewer, thread_id);`),
  },
  {
    id: 3,
    name: "pending review index",
    ...same(`
      CREATE TABLE pending_reviews (
        thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        interrupt_id TEXT NOT NULL,
        stage TEXT NOT NULL,
        title TEXT NOT NULL,
        overall_score DOUBLE PRECISION,
        passed BOOLEAN,
        actions TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (thread_id, interrupt_id)
      );
      CREATE INDEX pending_reviews_keyset ON pending_reviews (created_at DESC, thread_id DESC);`),
  },
  {
    id: 4,
    name: "decisions",
    ...same(`
      CREATE TABLE decisions (
        id TEXT PRIMARY KEY,
        thread_id TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        interrupt_id TEXT NOT NULL,
        stage TEXT NOT NULL,
        reviewer TEXT NOT NULL,
        action TEXT NOT NULL,
        payload TEXT NOT NULL,
        decided_at TEXT NOT NULL,
        applied_at TEXT,
        UNIQUE (thread_id, interrupt_id)
      );
      CREATE INDEX decisions_unapplied ON decisions (thread_id) WHERE applied_at IS NULL;`),
  },
  {
    id: 5,
    name: "thread events",
    statements: (words) => `
      CREATE TABLE thread_events (
        seq ${words.serialKey},
        thread_id TEXT NOT NULL,
        type TEXT NOT NULL,
        stage TEXT,
        message TEXT,
        at TEXT NOT NULL
      );
      CREATE INDEX thread_events_thread ON thread_events (thread_id, seq);`,
  },
  {
    id: 6,
    name: "thread locks (SQLite: held by a live process id; PostgreSQL uses advisory locks)",
    statements: (words) =>
      words.dialect === "postgres"
        ? ""
        : `
      CREATE TABLE thread_locks (
        thread_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        pid INTEGER NOT NULL,
        acquired_at TEXT NOT NULL
      );`,
  },
  {
    id: 7,
    name: "pending reviews: review type and verdict, for the terminal list",
    ...same(`
      ALTER TABLE pending_reviews ADD COLUMN review_type TEXT NOT NULL DEFAULT 'evaluation_review';
      ALTER TABLE pending_reviews ADD COLUMN verdict TEXT;`),
  },
  {
    id: 8,
    name: "rubric registry: every registered version, and the latest pointer of each rubric",
    ...same(`
      CREATE TABLE rubric_versions (
        rubric_id TEXT NOT NULL,
        version TEXT NOT NULL,
        seq INTEGER NOT NULL,
        content_hash TEXT NOT NULL,
        target_type TEXT,
        body TEXT NOT NULL,
        registered_at TEXT NOT NULL,
        PRIMARY KEY (rubric_id, version),
        UNIQUE (rubric_id, seq)
      );
      CREATE TABLE rubrics (
        id TEXT PRIMARY KEY,
        version TEXT NOT NULL,
        target_type TEXT,
        updated_at TEXT NOT NULL,
        FOREIGN KEY (id, version) REFERENCES rubric_versions (rubric_id, version)
      );
      CREATE INDEX rubrics_target ON rubrics (target_type, id);`),
  },
  {
    id: 9,
    name: "artifacts and the rubric evaluations of their reviews",
    ...same(`
      CREATE TABLE artifacts (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        name TEXT NOT NULL,
        content TEXT NOT NULL,
        rubric_ids TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE artifact_evaluations (
        id TEXT PRIMARY KEY,
        artifact_id TEXT NOT NULL REFERENCES artifacts (id) ON DELETE CASCADE,
        review_round INTEGER NOT NULL,
        position INTEGER NOT NULL,
        rubric_id TEXT NOT NULL,
        rubric_version TEXT NOT NULL,
        passed BOOLEAN NOT NULL,
        body TEXT NOT NULL,
        evaluated_at TEXT NOT NULL,
        UNIQUE (artifact_id, review_round, position)
      );`),
  },
  {
    id: 10,
    name: "judge cache: usable judge answers by the hash of what decided them",
    ...same(JUDGE_CACHE_TABLE_SQL),
  },
  {
    id: 11,
    name: "the graph a thread belongs to (the review desk's, or a library orchestrator's)",
    ...same(`
      ALTER TABLE threads ADD COLUMN graph TEXT NOT NULL DEFAULT 'review-desk';
      ALTER TABLE pending_reviews ADD COLUMN graph TEXT NOT NULL DEFAULT 'review-desk';
      CREATE INDEX pending_reviews_graph ON pending_reviews (graph, created_at, thread_id);`),
  },
  {
    id: 12,
    name: "decisions the graph refused: kept aside until the thread is retried",
    ...same(`
      ALTER TABLE decisions ADD COLUMN refused_at TEXT;
      ALTER TABLE decisions ADD COLUMN refusal TEXT;`),
  },
  {
    id: 13,
    name: "calibration labels: each decision next to the judge's outcome, one row per criterion",
    ...same(`
      CREATE TABLE calibration_labels (
        decision_id TEXT NOT NULL,
        criterion_id TEXT NOT NULL,
        thread_id TEXT NOT NULL,
        stage TEXT NOT NULL,
        content_type TEXT NOT NULL,
        evaluation_id TEXT NOT NULL,
        reviewer TEXT NOT NULL,
        decided_at TEXT NOT NULL,
        action TEXT NOT NULL,
        feedback TEXT,
        judge_passed BOOLEAN NOT NULL,
        criterion_title TEXT NOT NULL,
        method TEXT NOT NULL,
        threshold DOUBLE PRECISION NOT NULL,
        judge_score DOUBLE PRECISION,
        judge_met BOOLEAN,
        judge_native TEXT,
        source TEXT NOT NULL,
        reviewer_score DOUBLE PRECISION,
        reviewer_native TEXT,
        reviewer_note TEXT,
        PRIMARY KEY (decision_id, criterion_id)
      );
      CREATE INDEX calibration_labels_decided ON calibration_labels (decided_at, decision_id, criterion_id);
      CREATE INDEX calibration_labels_type ON calibration_labels (content_type, decided_at, decision_id, criterion_id);
      CREATE INDEX calibration_labels_thread ON calibration_labels (thread_id);`),
  },
  {
    id: 14,
    name: "trace store: one row per evaluation, shared prompt parts kept once by sha256 (blobs)",
    // The rows of evalgate_traces (one per call, written before) stay and are still read.
    statements: traceTablesSql,
  },
  {
    id: 15,
    name: "page sessions: one row per sign-in, ended at sign-out, checked on every request",
    ...same(`
      CREATE TABLE review_sessions (
        id_hash TEXT PRIMARY KEY,
        reviewer TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        ended_at TEXT
      );
      CREATE INDEX review_sessions_expiry ON review_sessions (expires_at);`),
  },
  {
    id: 16,
    name: "calibration comparisons: each calibrate --compare run's figures, the latest shown on the page",
    ...same(`
      CREATE TABLE calibration_comparisons (
        id TEXT PRIMARY KEY,
        measured_at TEXT NOT NULL,
        body TEXT NOT NULL
      );
      CREATE INDEX calibration_comparisons_measured ON calibration_comparisons (measured_at, id);`),
  },
  {
    id: 17,
    name: "threads by state and last change, for the list of finished proposals",
    ...same(`
      CREATE INDEX threads_status_updated ON threads (status, updated_at DESC, id DESC);`),
  },
  {
    id: 18,
    name: "run settings of each thread (evalgate run's model, revision limit, panel), written with the thread",
    // No reference to threads: an earlier version's file may name threads the store has not seen.
    ...same(`
      CREATE TABLE thread_run_settings (
        thread_id TEXT PRIMARY KEY,
        settings TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );`),
  },
  {
    id: 19,
    name: "calibration labels: an accepted label keeps the judge's score at decision time as the reviewer's",
    // The score recorded with an accepted label is the one the reviewer saw and let stand.
    ...same(`
      UPDATE calibration_labels SET reviewer_score = judge_score, reviewer_native = judge_native
        WHERE source = 'accepted' AND reviewer_score IS NULL AND judge_score IS NOT NULL;`),
  },
  {
    id: 20,
    name: "sign-in and token attempts counted per client address and per account, for every replica",
    ...same(`
      CREATE TABLE sign_in_attempts (
        key TEXT PRIMARY KEY,
        window_ends TEXT NOT NULL,
        attempts INTEGER NOT NULL
      );
      CREATE INDEX sign_in_attempts_window ON sign_in_attempts (window_ends);`),
  },
  {
    id: 21,
    name: "calibration labels: the catalog version the judge used (registry name@version)",
    ...same(`ALTER TABLE calibration_labels ADD COLUMN judged_with TEXT;`),
  },
];
