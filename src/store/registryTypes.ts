/** What the registries keep: rubric versions with an active pointer, artifacts, review rounds. */
import { z } from "zod";
import { BooleanColumnSchema, rowReader } from "./database.js";

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

export const LATEST_RUBRIC_VERSIONS = `SELECT v.* FROM rubrics r JOIN rubric_versions v
  ON v.rubric_id = r.id AND v.version = r.version`;
