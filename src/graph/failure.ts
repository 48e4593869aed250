import { AIMessage } from "@langchain/core/messages";
import { isCatalogError } from "../criteria/errors.js";
import { isEvaluationError, isEvaluationModelError } from "../engine/errors.js";
import { userMessage } from "../errors.js";
import {
  isModelCallError,
  isModelContentPolicyError,
  isModelRateLimitError,
  isModelTimeoutError,
  isModelUnavailableError,
  type ModelCallError,
} from "../llm/errors.js";
import { redactSecretText } from "../redact.js";
import { isScoringError } from "../scoring/errors.js";
import { type EvaluationResult, EvaluationResultSchema } from "../scoring/result.js";
import { isNothingEvaluatedError } from "./errors.js";
import type { EvaluationRef, InterruptMetadata } from "./model.js";
import type { OverallProposalStateType, ProposalUpdate } from "./state.js";
import {
  mergeStateUpdates,
  parseStatePath,
  readStatePath,
  type StatePath,
  statePathUpdate,
} from "./statePath.js";

export interface EvaluationFailure {
  /** For state.errors: what failed, where, and the technical detail. */
  technical: string;
  /** For state.messages: what happened and what to do, in plain words. */
  friendly: string;
}

/** The model failure's kind (timeout, rate_limit, unavailable, …) and what it means in plain words. */
function modelFailure(error: ModelCallError): { kind: string; friendly: string } {
  if (isModelTimeoutError(error)) {
    return { kind: "timeout", friendly: "the model took too long to answer" };
  }
  if (isModelRateLimitError(error)) {
    return { kind: "rate_limit", friendly: "the model service is rate-limiting requests" };
  }
  if (isModelContentPolicyError(error)) {
    return { kind: "content_policy", friendly: "the model refused the content (content policy)" };
  }
  if (isModelUnavailableError(error)) {
    return { kind: "unavailable", friendly: "the model is not available" };
  }
  return { kind: "model_error", friendly: "the model call failed" };
}

/** What made an evaluation fail, for the thread's errors and the reviewer's message (credentials redacted). */
export function describeFailure(
  error: unknown,
  where: string,
  title: string,
  activity: "evaluation" | "generation" = "evaluation",
): EvaluationFailure {
  const failure = classifyFailure(error, where, title, activity);
  return {
    ...failure,
    technical: redactSecretText(failure.technical),
    friendly: redactSecretText(failure.friendly),
  };
}

function classifyFailure(
  error: unknown,
  where: string,
  title: string,
  activity: "evaluation" | "generation",
): EvaluationFailure {
  // The error's own words and code: the JS class name says nothing to whoever reads it.
  const detail = userMessage(error);
  const retry = "Nothing was lost: resume with retry once the cause is fixed.";
  if (isEvaluationModelError(error) || isModelCallError(error)) {
    const cause = isEvaluationModelError(error) ? error.modelError : error;
    const { kind, friendly } = modelFailure(cause);
    return {
      technical: `[${where}] model error (${kind}): ${detail}`,
      friendly: `The ${title} ${activity} could not be completed: ${friendly}. ${retry}`,
    };
  }
  if (isCatalogError(error)) {
    return {
      technical: `[${where}] criteria catalog error: ${error.message}`,
      friendly: `The ${title} ${activity} could not start: its criteria file is invalid (${error.message}). ${retry}`,
    };
  }
  if (isEvaluationError(error) && error.kind === "input") {
    return {
      technical: `[${where}] invalid input: ${detail}`,
      friendly: `The ${title} could not be evaluated: ${error.message}.`,
    };
  }
  if (isNothingEvaluatedError(error)) {
    return {
      technical: `[${where}] processing error (nothing_evaluated): ${detail}`,
      friendly: `The ${title} ${activity} failed: none of the judge's answers could be read, so no criterion was evaluated. ${retry}`,
    };
  }
  const kind = isScoringError(error) ? "scoring" : "processing";
  return {
    technical: `[${where}] processing error (${kind}): ${detail}`,
    friendly: `The ${title} ${activity} failed while processing ${activity === "generation" ? "the writer's answer" : "the result"} (${error instanceof Error ? error.message : String(error)}). ${retry}`,
  };
}

export type FailedReview = Omit<InterruptMetadata, "description" | "error">;

/** A failed stage's update: status `error`, the error kept, and the review that offers a retry. */
export function failedStageUpdate(
  statusPath: StatePath,
  review: FailedReview,
  failure: EvaluationFailure,
  ...more: ProposalUpdate[]
): ProposalUpdate {
  const metadata = { ...review, description: failure.friendly, error: failure.technical };
  return mergeStateUpdates(statePathUpdate(statusPath, "error"), ...more, {
    isInterrupted: true,
    interruptMetadata: metadata,
    errors: [failure.technical],
    messages: [new AIMessage(failure.friendly)],
  });
}

/** The review's reference to the evaluation it is about, and the evaluation it names. */
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
