import type Database from "better-sqlite3";
import {
  type ArtifactEvaluationRow,
  type ArtifactRow,
  type ArtifactStatus,
  artifactEvaluationOf,
  artifactOf,
  LATEST_RUBRIC_VERSIONS as LATEST,
  type RegisteredVersion,
  type RegistryStore,
  type RubricRegistration,
  type RubricVersionRow,
  rubricVersionOf,
} from "./registryTypes.js";
import { openMigratedSqlite } from "./sqliteStore.js";
import { now } from "./sqliteTables.js";

export class SqliteRegistryStore implements RegistryStore {
  readonly kind = "sqlite";
  private constructor(private readonly db: Database.Database) {}

  static open(path: string): SqliteRegistryStore {
    return new SqliteRegistryStore(openMigratedSqlite(path));
  }

  async registerRubric(
    registration: RubricRegistration,
    decide: (
      latest: RubricVersionRow | undefined,
      isTaken: (version: string) => boolean,
    ) => RegisteredVersion,
  ): Promise<RegisteredVersion> {
    const id = registration.rubricId;
    return this.db
      .transaction((): RegisteredVersion => {
        const rows = this.db
          .prepare("SELECT * FROM rubric_versions WHERE rubric_id = ? ORDER BY seq")
          .all(id)
          .map(rubricVersionOf);
        const taken = new Set(rows.map((r) => r.version));
        const latest = rows.at(-1);
        const decided = decide(latest, (v) => taken.has(v));
        const at = now();
        if (decided.created) {
          this.db
            .prepare(
              "INSERT INTO rubric_versions (rubric_id, version, seq, content_hash, target_type, body, registered_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            )
            .run(
              id,
              decided.version,
              (latest?.seq ?? 0) + 1,
              registration.contentHash,
              registration.targetType,
              registration.bodyOf(decided.version),
              at,
            );
        }
        this.db
          .prepare(
            `INSERT INTO rubrics (id, version, target_type, updated_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (id) DO UPDATE SET version = excluded.version,
               target_type = excluded.target_type, updated_at = excluded.updated_at`,
          )
          .run(id, decided.version, registration.targetType, at);
        return decided;
      })
      .immediate();
  }

  async rubricVersion(rubricId: string, version?: string) {
    const row =
      version === undefined
        ? this.db.prepare(`${LATEST} WHERE r.id = ?`).get(rubricId)
        : this.db
            .prepare("SELECT * FROM rubric_versions WHERE rubric_id = ? AND version = ?")
            .get(rubricId, version);
    return row === undefined ? undefined : rubricVersionOf(row);
  }

  async latestRubrics(targetType?: string) {
    const rows =
      targetType === undefined
        ? this.db.prepare(`${LATEST} ORDER BY r.id`).all()
        : this.db.prepare(`${LATEST} WHERE r.target_type = ? ORDER BY r.id`).all(targetType);
    return rows.map(rubricVersionOf);
  }

  async rubricVersions(rubricId: string) {
    return this.db
      .prepare("SELECT * FROM rubric_versions WHERE rubric_id = ? ORDER BY seq")
      .all(rubricId)
      .map(rubricVersionOf);
  }

  async hideRubric(rubricId: string): Promise<boolean> {
    return this.db.prepare("DELETE FROM rubrics WHERE id = ?").run(rubricId).changes > 0;
  }

  async createArtifact(a: ArtifactRow): Promise<void> {
    this.db
      .prepare(
        "INSERT INTO artifacts (id, type, name, content, rubric_ids, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(
        a.id,
        a.type,
        a.name,
        a.content,
        JSON.stringify(a.rubricIds),
        a.status,
        a.createdAt,
        a.updatedAt,
      );
  }

  async artifact(artifactId: string) {
    const row = this.db.prepare("SELECT * FROM artifacts WHERE id = ?").get(artifactId);
    return row === undefined ? undefined : artifactOf(row);
  }

  async setArtifactStatus(artifactId: string, status: ArtifactStatus): Promise<void> {
    this.db
      .prepare("UPDATE artifacts SET status = ?, updated_at = ? WHERE id = ?")
      .run(status, now(), artifactId);
  }

  async recordArtifactReview(
    artifactId: string,
    status: ArtifactStatus,
    evaluations: Omit<ArtifactEvaluationRow, "reviewRound">[],
  ): Promise<number> {
    return this.db
      .transaction((): number => {
        const last = this.db
          .prepare(
            "SELECT COALESCE(MAX(review_round), 0) AS round FROM artifact_evaluations WHERE artifact_id = ?",
          )
          .get(artifactId) as { round: number };
        const round = last.round + 1;
        const insert = this.db.prepare(
          "INSERT INTO artifact_evaluations (id, artifact_id, review_round, position, rubric_id, rubric_version, passed, body, evaluated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        );
        for (const e of evaluations) {
          insert.run(
            e.id,
            artifactId,
            round,
            e.position,
            e.rubricId,
            e.rubricVersion,
            e.passed ? 1 : 0,
            e.body,
            e.evaluatedAt,
          );
        }
        this.db
          .prepare("UPDATE artifacts SET status = ?, updated_at = ? WHERE id = ?")
          .run(status, now(), artifactId);
        return round;
      })
      .immediate();
  }

  async latestArtifactEvaluations(artifactId: string) {
    return this.db
      .prepare(
        `SELECT * FROM artifact_evaluations WHERE artifact_id = ? AND review_round =
           (SELECT MAX(review_round) FROM artifact_evaluations WHERE artifact_id = ?)
         ORDER BY position`,
      )
      .all(artifactId, artifactId)
      .map(artifactEvaluationOf);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
