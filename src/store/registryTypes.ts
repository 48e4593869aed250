/**
 * What the rubric and artifact registries keep beside the checkpoints: every registered rubric
 * version (its content as JSON, its hash) with a latest pointer per rubric that delete removes,
 * and artifacts with the rubric evaluations of each review round. SQLite and PostgreSQL implement
 * the same interface.
 */
import { z } from "zod";
import { parseUntrustedJson } from "../untrusted/json.js";
import { storeDataInvalid } from "./errors.js";

export interface RubricVersionRow {
  rubricId: string;
  version: string;
  /** Registration order within the rubric: 1, 2, … */
  seq: number;
  contentHash: string;
  targetType: string | null;
  /** The rubric as JSON, its version set to `version`. */
  body: string;
  registeredAt: string;
}

/** A registration: the store decides the version in the same transaction that stores it. */
export interface RubricRegistration {
  rubricId: string;
  declaredVersion: string;
  contentHash: string;
  targetType: string | null;
  /** The JSON body to store for the version decided. */
  bodyOf(version: string): string;
}

export interface RegisteredVersion {
  version: string;
  /** False when the content was the latest version's: nothing new was stored. */
  created: boolean;
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

export interface ArtifactRow {
  id: string;
  type: string;
  name: string;
  /** The content as JSON. */
  content: string;
  rubricIds: string[];
  status: ArtifactStatus;
  createdAt: string;
  updatedAt: string;
}

export interface ArtifactEvaluationRow {
  id: string;
  artifactId: string;
  /** Which review of the artifact: 1, 2, … */
  reviewRound: number;
  /** Order within the round (the order of the rubric ids). */
  position: number;
  rubricId: string;
  rubricVersion: string;
  passed: boolean;
  /** The evaluation as JSON. */
  body: string;
  evaluatedAt: string;
}

export interface RegistryStore {
  readonly kind: "sqlite" | "postgres";
  /** In one transaction: decides the version (see decideVersion), stores it, points at it. */
  registerRubric(
    registration: RubricRegistration,
    decide: (
      latest: RubricVersionRow | undefined,
      isTaken: (version: string) => boolean,
    ) => RegisteredVersion,
  ): Promise<RegisteredVersion>;
  /** A version of a rubric, or (without one) the version its latest pointer names. */
  rubricVersion(rubricId: string, version?: string): Promise<RubricVersionRow | undefined>;
  /** The version each pointer names, by rubric id; only those of one target type when given. */
  latestRubrics(targetType?: string): Promise<RubricVersionRow[]>;
  /** Every version of a rubric, oldest first (also of a deleted rubric). */
  rubricVersions(rubricId: string): Promise<RubricVersionRow[]>;
  /** Removes the latest pointer; false when there was none. */
  hideRubric(rubricId: string): Promise<boolean>;
  /**
   * Points the rubric's pointer (the active version, which gates judge with) at a stored version;
   * false when no such version is stored.
   */
  activateRubric(rubricId: string, version: string): Promise<boolean>;

  createArtifact(artifact: ArtifactRow): Promise<void>;
  artifact(artifactId: string): Promise<ArtifactRow | undefined>;
  setArtifactStatus(artifactId: string, status: ArtifactStatus): Promise<void>;
  /** In one transaction: the next review round's evaluations and the artifact's new status. */
  recordArtifactReview(
    artifactId: string,
    status: ArtifactStatus,
    evaluations: Omit<ArtifactEvaluationRow, "reviewRound">[],
  ): Promise<number>;
  /** The evaluations of the latest review round, in order. */
  latestArtifactEvaluations(artifactId: string): Promise<ArtifactEvaluationRow[]>;
  close(): Promise<void>;
}

function check<T extends z.ZodType>(schema: T, row: unknown, what: string): z.infer<T> {
  const parsed = schema.safeParse(row);
  if (!parsed.success) throw storeDataInvalid(`${what}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const int = z.union([z.number(), z.string()]).transform(Number).pipe(z.number().int());
const bool = z.union([z.boolean(), z.number()]).transform((v) => v === true || v === 1);

const RubricVersionColumns = z.object({
  rubric_id: z.string(),
  version: z.string(),
  seq: int,
  content_hash: z.string(),
  target_type: z.string().nullable(),
  body: z.string(),
  registered_at: z.string(),
});

export function rubricVersionOf(row: unknown): RubricVersionRow {
  const r = check(RubricVersionColumns, row, "a rubric version row");
  return {
    rubricId: r.rubric_id,
    version: r.version,
    seq: r.seq,
    contentHash: r.content_hash,
    targetType: r.target_type,
    body: r.body,
    registeredAt: r.registered_at,
  };
}

const ArtifactColumns = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  content: z.string(),
  rubric_ids: z.string(),
  status: ArtifactStatusSchema,
  created_at: z.string(),
  updated_at: z.string(),
});

export function artifactOf(row: unknown): ArtifactRow {
  const r = check(ArtifactColumns, row, "an artifact row");
  const rubricIds = parseUntrustedJson(r.rubric_ids, (_problem, description) =>
    storeDataInvalid(`artifact ${r.id}: rubric_ids is not usable JSON: ${description}`),
  );
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    content: r.content,
    rubricIds: check(z.array(z.string()), rubricIds, `artifact ${r.id}: rubric_ids`),
    status: r.status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const EvaluationColumns = z.object({
  id: z.string(),
  artifact_id: z.string(),
  review_round: int,
  position: int,
  rubric_id: z.string(),
  rubric_version: z.string(),
  passed: bool,
  body: z.string(),
  evaluated_at: z.string(),
});

export function artifactEvaluationOf(row: unknown): ArtifactEvaluationRow {
  const r = check(EvaluationColumns, row, "an artifact evaluation row");
  return {
    id: r.id,
    artifactId: r.artifact_id,
    reviewRound: r.review_round,
    position: r.position,
    rubricId: r.rubric_id,
    rubricVersion: r.rubric_version,
    passed: r.passed,
    body: r.body,
    evaluatedAt: r.evaluated_at,
  };
}

/** Every rubric's latest version: the query both registry stores start from. */
export const LATEST_RUBRIC_VERSIONS = `SELECT v.* FROM rubrics r JOIN rubric_versions v
  ON v.rubric_id = r.id AND v.version = r.version`;
