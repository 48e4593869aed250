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
import { isNothingEvaluatedError } from "./errors.js";
import type { InterruptMetadata } from "./model.js";
import type { ProposalUpdate } from "./state.js";
import { mergeStateUpdates, type StatePath, statePathUpdate } from "./statePath.js";

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
