/** The review's reference to the evaluation it is about, and the evaluation it names. */
import { type EvaluationResult, EvaluationResultSchema } from "../scoring/result.js";
import type { EvaluationRef, InterruptMetadata } from "./model.js";
import type { OverallProposalStateType } from "./state.js";
import { parseStatePath, readStatePath } from "./statePath.js";

export function evaluationRefOf(field: string, result: EvaluationResult): EvaluationRef {
  return {
    field,
    ...(result.evaluationId === undefined ? {} : { evaluationId: result.evaluationId }),
    overallScore: result.overallScore,
    passed: result.passed,
    verdict: result.verdict,
    ...(result.status === undefined ? {} : { status: result.status }),
  };
}

/** The review of an evaluation (none: of the content alone), its result referenced where it is kept. */
export function evaluationReview(
  stage: { contentType: string; contentId: string; title: string; resultField: string },
  evaluation: EvaluationResult | null,
): InterruptMetadata {
  const ref =
    evaluation === null ? {} : { evaluationRef: evaluationRefOf(stage.resultField, evaluation) };
  return {
    type: "evaluation_review",
    contentType: stage.contentType,
    contentId: stage.contentId,
    evaluation: null,
    ...ref,
    actions: ["approve", "revise", "edit"],
    title: `${stage.title} Evaluation Review`,
    description: `Review the evaluation of the ${stage.title}.`,
  };
}

/** The evaluation a review is about: the one it carries, else the one its reference names, or null. */
export function referencedEvaluation(
  metadata: Pick<InterruptMetadata, "evaluation" | "evaluationRef">,
  values: unknown,
): EvaluationResult | null {
  if (metadata.evaluation !== null) return metadata.evaluation;
  const ref = metadata.evaluationRef;
  if (ref === undefined || typeof values !== "object" || values === null) return null;
  let found: unknown;
  try {
    found = readStatePath(values as OverallProposalStateType, parseStatePath(ref.field));
  } catch {
    return null;
  }
  const parsed = EvaluationResultSchema.safeParse(found);
  return parsed.success ? parsed.data : null;
}
