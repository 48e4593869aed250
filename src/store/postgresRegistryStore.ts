/**
 * The rubric and artifact registries on PostgreSQL, in the checkpoints' database. A registration
 * holds a transaction-scoped advisory lock on the rubric id, so replicas registering the same
 * rubric get consecutive versions; a review round locks its artifact's row.
 */
import type pg from "pg";
import { inTransaction, openMigratedPool } from "./postgresStore.js";
import { now } from "./postgresTables.js";
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

export class PostgresRegistryStore implements RegistryStore {
  readonly kind = "postgres";
  private constructor(private readonly pool: pg.Pool) {}

  static async open(url: string, poolSize = 4): Promise<PostgresRegistryStore> {
    const pool = await openMigratedPool(url, poolSize);
    return new PostgresRegistryStore(pool);
  }

  async registerRubric(
    registration: RubricRegistration,
    decide: (
      latest: RubricVersionRow | undefined,
      isTaken: (version: string) => boolean,
    ) => RegisteredVersion,
  ): Promise<RegisteredVersion> {
    const id = registration.rubricId;
    return inTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`rubric:${id}`]);
      const { rows } = await client.query(
        "SELECT * FROM rubric_versions WHERE rubric_id = $1 ORDER BY seq",
        [id],
      );
      const versions = rows.map(rubricVersionOf);
      const taken = new Set(versions.map((r) => r.version));
      const latest = versions.at(-1);
      const decided = decide(latest, (v) => taken.has(v));
      const at = now();
      if (decided.created) {
        await client.query(
          "INSERT INTO rubric_versions (rubric_id, version, seq, content_hash, target_type, body, registered_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
          [
            id,
            decided.version,
            (latest?.seq ?? 0) + 1,
            registration.contentHash,
            registration.targetType,
            registration.bodyOf(decided.version),
            at,
          ],
        );
      }
      await client.query(
        `INSERT INTO rubrics (id, version, target_type, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET version = excluded.version,
           target_type = excluded.target_type, updated_at = excluded.updated_at`,
        [id, decided.version, registration.targetType, at],
      );
      return decided;
    });
  }

  async rubricVersion(rubricId: string, version?: string) {
    const { rows } =
      version === undefined
        ? await this.pool.query(`${LATEST} WHERE r.id = $1`, [rubricId])
        : await this.pool.query(
            "SELECT * FROM rubric_versions WHERE rubric_id = $1 AND version = $2",
            [rubricId, version],
          );
    return rows[0] === undefined ? undefined : rubricVersionOf(rows[0]);
  }

  async latestRubrics(targetType?: string) {
    const { rows } =
      targetType === undefined
        ? await this.pool.query(`${LATEST} ORDER BY r.id`)
        : await this.pool.query(`${LATEST} WHERE r.target_type = $1 ORDER BY r.id`, [targetType]);
    return rows.map(rubricVersionOf);
  }

  async rubricVersions(rubricId: string) {
    const { rows } = await this.pool.query(
      "SELECT * FROM rubric_versions WHERE rubric_id = $1 ORDER BY seq",
      [rubricId],
    );
    return rows.map(rubricVersionOf);
  }

  async hideRubric(rubricId: string): Promise<boolean> {
    const result = await this.pool.query("DELETE FROM rubrics WHERE id = $1", [rubricId]);
    return (result.rowCount ?? 0) > 0;
  }

  async createArtifact(a: ArtifactRow): Promise<void> {
    await this.pool.query(
      "INSERT INTO artifacts (id, type, name, content, rubric_ids, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
      [
        a.id,
        a.type,
        a.name,
        a.content,
        JSON.stringify(a.rubricIds),
        a.status,
        a.createdAt,
        a.updatedAt,
      ],
    );
  }

  async artifact(artifactId: string) {
    const { rows } = await this.pool.query("SELECT * FROM artifacts WHERE id = $1", [artifactId]);
    return rows[0] === undefined ? undefined : artifactOf(rows[0]);
  }

  async setArtifactStatus(artifactId: string, status: ArtifactStatus): Promise<void> {
    await this.pool.query("UPDATE artifacts SET status = $1, updated_at = $2 WHERE id = $3", [
      status,
      now(),
      artifactId,
    ]);
  }

  async recordArtifactReview(
    artifactId: string,
    status: ArtifactStatus,
    evaluations: Omit<ArtifactEvaluationRow, "reviewRound">[],
  ): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      await client.query("SELECT id FROM artifacts WHERE id = $1 FOR UPDATE", [artifactId]);
      const { rows } = await client.query<{ round: number | string }>(
        "SELECT COALESCE(MAX(review_round), 0) AS round FROM artifact_evaluations WHERE artifact_id = $1",
        [artifactId],
      );
      const round = Number(rows[0]?.round ?? 0) + 1;
      for (const e of evaluations) {
        await client.query(
          "INSERT INTO artifact_evaluations (id, artifact_id, review_round, position, rubric_id, rubric_version, passed, body, evaluated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
          [
            e.id,
            artifactId,
            round,
            e.position,
            e.rubricId,
            e.rubricVersion,
            e.passed,
            e.body,
            e.evaluatedAt,
          ],
        );
      }
      await client.query("UPDATE artifacts SET status = $1, updated_at = $2 WHERE id = $3", [
        status,
        now(),
        artifactId,
      ]);
      return round;
    });
  }

  async latestArtifactEvaluations(artifactId: string) {
    const { rows } = await this.pool.query(
      `SELECT * FROM artifact_evaluations WHERE artifact_id = $1 AND review_round =
         (SELECT MAX(review_round) FROM artifact_evaluations WHERE artifact_id = $1)
       ORDER BY position`,
      [artifactId],
    );
    return rows.map(artifactEvaluationOf);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
