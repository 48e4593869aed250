/**
 * The rubric and artifact registries in the checkpoints' database. A registration decides its
 * version in the transaction that stores it (replicas queue on an advisory lock of the rubric id).
 */
import { sql } from "kysely";
import { z } from "zod";
import { openMigratedPostgres, openMigratedSqlite } from "./connections.js";
import { BooleanColumnSchema, now, rowReader, type StoreDatabase } from "./database.js";
import { type DatabaseOptions, databaseLocation } from "./location.js";

export type RegistryStoreOptions = DatabaseOptions;

export const RubricVersionRowSchema = z.object({
  rubricId: z.string(),
  version: z.string(),
  /** Registration order within the rubric: 1, 2, … */
  seq: z.coerce.number().int(),
  contentHash: z.string(),
  targetType: z.string().nullable(),
  /** The rubric as JSON, its version set to `version`. */
  body: z.string(),
  registeredAt: z.string(),
});
export type RubricVersionRow = z.infer<typeof RubricVersionRowSchema>;

export interface RubricRegistration {
  rubricId: string;
  contentHash: string;
  targetType: string | null;
  bodyOf(version: string): string;
}

export interface RegisteredVersion {
  version: string;
  /** False when the content was the active or the latest version's. */
  created: boolean;
  /** The version that was active before, when the registration made another one active. */
  previous?: string;
}

export const ArtifactStatusSchema = z.enum([
  "draft",
  "pending_review",
  "in_review",
  "approved",
  "needs_revision",
  "review_failed",
]);
export type ArtifactStatus = z.infer<typeof ArtifactStatusSchema>;

export const ArtifactRowSchema = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  content: z.string(),
  rubricIds: z.array(z.string()),
  status: ArtifactStatusSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ArtifactRow = z.infer<typeof ArtifactRowSchema>;

export const ArtifactEvaluationRowSchema = z.object({
  id: z.string(),
  artifactId: z.string(),
  /** Which review of the artifact: 1, 2, … */
  reviewRound: z.coerce.number().int(),
  /** Order within the round (that of the rubric ids). */
  position: z.coerce.number().int(),
  rubricId: z.string(),
  rubricVersion: z.string(),
  passed: BooleanColumnSchema,
  body: z.string(),
  evaluatedAt: z.string(),
});
export type ArtifactEvaluationRow = z.infer<typeof ArtifactEvaluationRowSchema>;

export const rubricVersionOf = rowReader(RubricVersionRowSchema, "a rubric version row");
export const artifactOf = rowReader(ArtifactRowSchema, "an artifact row", { json: ["rubric_ids"] });
export const artifactEvaluationOf = rowReader(
  ArtifactEvaluationRowSchema,
  "an artifact evaluation row",
);

const LATEST = sql.raw(`SELECT v.* FROM rubrics r JOIN rubric_versions v
  ON v.rubric_id = r.id AND v.version = r.version`);

export type RegistryStore = SqlRegistryStore;

/** Makes a registered version the rubric's active one (no row when there is no such version). */
function activation(rubricId: string, version: string) {
  return sql`INSERT INTO rubrics (id, version, target_type, updated_at)
    SELECT rubric_id, version, target_type, ${now()} FROM rubric_versions
      WHERE rubric_id = ${rubricId} AND version = ${version}
    ON CONFLICT (id) DO UPDATE SET version = excluded.version,
      target_type = excluded.target_type, updated_at = excluded.updated_at`;
}

class SqlRegistryStore {
  private constructor(private readonly db: StoreDatabase) {}

  static async open(options: DatabaseOptions): Promise<SqlRegistryStore> {
    const location = databaseLocation(options);
    return new SqlRegistryStore(
      location.kind === "postgres"
        ? await openMigratedPostgres(location.url, 4)
        : await openMigratedSqlite(location.path),
    );
  }

  get kind(): "sqlite" | "postgres" {
    return this.db.dialect;
  }

  async registerRubric(
    registration: RubricRegistration,
    decide: (
      latest: RubricVersionRow | undefined,
      isTaken: (version: string) => boolean,
      active: RubricVersionRow | undefined,
    ) => RegisteredVersion,
  ): Promise<RegisteredVersion> {
    const id = registration.rubricId;
    const target = registration.targetType;
    return this.db.transaction(function* (tx) {
      yield* tx.lockUntilCommit(`rubric:${id}`);
      const rows = yield* tx.all(
        sql`SELECT * FROM rubric_versions WHERE rubric_id = ${id} ORDER BY seq`,
      );
      const versions = rows.map(rubricVersionOf);
      const taken = new Set(versions.map((r) => r.version));
      const latest = versions.at(-1);
      const pointer = yield* tx.first(sql`SELECT version FROM rubrics WHERE id = ${id}`);
      const was = (pointer as { version?: string } | undefined)?.version;
      const active = versions.find((r) => r.version === was);
      const decided = decide(latest, (v) => taken.has(v), active);
      const at = now();
      if (decided.created) {
        yield* tx.run(
          sql`INSERT INTO rubric_versions
                (rubric_id, version, seq, content_hash, target_type, body, registered_at)
              VALUES (${id}, ${decided.version}, ${(latest?.seq ?? 0) + 1},
                ${registration.contentHash}, ${target}, ${registration.bodyOf(decided.version)}, ${at})`,
        );
      }
      if (was === decided.version) return decided;
      yield* tx.run(activation(id, decided.version));
      return was === undefined ? decided : { ...decided, previous: was };
    });
  }

  /** A version of a rubric, or (without one) the active version. */
  async rubricVersion(rubricId: string, version?: string) {
    const row =
      version === undefined
        ? await this.db.first(sql`${LATEST} WHERE r.id = ${rubricId}`)
        : await this.db.first(
            sql`SELECT * FROM rubric_versions WHERE rubric_id = ${rubricId} AND version = ${version}`,
          );
    return row === undefined ? undefined : rubricVersionOf(row);
  }

  async latestRubrics(targetType?: string) {
    const rows =
      targetType === undefined
        ? await this.db.all(sql`${LATEST} ORDER BY r.id`)
        : await this.db.all(sql`${LATEST} WHERE r.target_type = ${targetType} ORDER BY r.id`);
    return rows.map(rubricVersionOf);
  }

  async rubricVersions(rubricId: string) {
    const rows = await this.db.all(
      sql`SELECT * FROM rubric_versions WHERE rubric_id = ${rubricId} ORDER BY seq`,
    );
    return rows.map(rubricVersionOf);
  }

  async hideRubric(rubricId: string): Promise<boolean> {
    return (await this.db.run(sql`DELETE FROM rubrics WHERE id = ${rubricId}`)) > 0;
  }

  async activateRubric(rubricId: string, version: string): Promise<boolean> {
    return (await this.db.run(activation(rubricId, version))) > 0;
  }

  async createArtifact(a: ArtifactRow): Promise<void> {
    await this.db.run(
      sql`INSERT INTO artifacts (id, type, name, content, rubric_ids, status, created_at, updated_at)
          VALUES (${a.id}, ${a.type}, ${a.name}, ${a.content}, ${JSON.stringify(a.rubricIds)},
            ${a.status}, ${a.createdAt}, ${a.updatedAt})`,
    );
  }

  async artifact(artifactId: string) {
    const row = await this.db.first(sql`SELECT * FROM artifacts WHERE id = ${artifactId}`);
    return row === undefined ? undefined : artifactOf(row);
  }

  async setArtifactStatus(artifactId: string, status: ArtifactStatus): Promise<void> {
    await this.db.run(
      sql`UPDATE artifacts SET status = ${status}, updated_at = ${now()} WHERE id = ${artifactId}`,
    );
  }

  async recordArtifactReview(
    artifactId: string,
    status: ArtifactStatus,
    evaluations: Omit<ArtifactEvaluationRow, "reviewRound">[],
  ): Promise<number> {
    return this.db.transaction(function* (tx) {
      // The artifact's new status first: its row stays locked until the round is stored.
      yield* tx.run(
        sql`UPDATE artifacts SET status = ${status}, updated_at = ${now()} WHERE id = ${artifactId}`,
      );
      const last = yield* tx.first(
        sql`SELECT COALESCE(MAX(review_round), 0) AS round FROM artifact_evaluations
            WHERE artifact_id = ${artifactId}`,
      );
      const round = Number((last as { round?: unknown } | undefined)?.round ?? 0) + 1;
      for (const e of evaluations) {
        yield* tx.run(
          sql`INSERT INTO artifact_evaluations (id, artifact_id, review_round, position, rubric_id,
                rubric_version, passed, body, evaluated_at)
              VALUES (${e.id}, ${artifactId}, ${round}, ${e.position}, ${e.rubricId},
                ${e.rubricVersion}, ${tx.bool(e.passed)}, ${e.body}, ${e.evaluatedAt})`,
        );
      }
      return round;
    });
  }

  async latestArtifactEvaluations(artifactId: string) {
    const rows = await this.db.all(
      sql`SELECT * FROM artifact_evaluations WHERE artifact_id = ${artifactId} AND review_round =
            (SELECT MAX(review_round) FROM artifact_evaluations WHERE artifact_id = ${artifactId})
          ORDER BY position`,
    );
    return rows.map(artifactEvaluationOf);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

export function openRegistryStore(options: RegistryStoreOptions = {}): Promise<RegistryStore> {
  return SqlRegistryStore.open(options);
}
