/**
 * The reasoning/score consistency check: a judge whose reasoning says the criterion is not met
 * (not addressed, missing, insufficient information, …) while its score passes — or whose
 * reasoning is unreservedly glowing while its score fails — contradicts itself. Such a result is
 * held for a human (humanReviewRequired, with a reason and a warning naming the criterion); the
 * score is not changed and the criterion is not failed: which half is right is the reviewer's call.
 */
import { LLM_METHOD_KINDS } from "../criteria/model.js";
import { readReasoningStance } from "../judge/reasoningStance.js";
import type { CriterionResult } from "../scoring/result.js";

function shown(text: string): string {
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 97)}...` : text);
}

/**
 * Why a judgement contradicts itself, or undefined when it does not: `met` is whether the score
 * passes (null: not decided, never a contradiction); `value` is the score as the message shows it.
 */
export function reasoningContradiction(
  reasoning: string,
  met: boolean | null,
  value: string,
): string | undefined {
  if (met === null || reasoning.trim() === "") return undefined;
  const stance = readReasoningStance(reasoning);
  const where = stance.clause === undefined ? "" : ` (${shown(stance.clause)})`;
  if (met && stance.verdict === "not met") {
    return `the judge's reasoning says it is not met${where} but its score ${value} passes`;
  }
  if (!met && stance.glowing) {
    return `the judge's reasoning says it is fully met${where} but its score ${value} fails`;
  }
  return undefined;
}

export interface ReasoningConsistency {
  /** One reason per contradicting criterion: the result is held for a human. */
  humanReview: string[];
  warnings: string[];
}

/** Checks every evaluated LLM criterion's reasoning against whether its score passed. */
export function checkReasoningConsistency(
  results: readonly CriterionResult[],
): ReasoningConsistency {
  const found: ReasoningConsistency = { humanReview: [], warnings: [] };
  for (const result of results) {
    if (!result.evaluated || !LLM_METHOD_KINDS.has(result.method)) continue;
    const contradiction = reasoningContradiction(
      result.reasoning,
      result.met,
      String(result.native),
    );
    if (contradiction === undefined) continue;
    found.humanReview.push(`criterion ${result.id}: ${contradiction}`);
    found.warnings.push(
      `${result.id}: reasoning and score disagree (${contradiction}); held for human review`,
    );
  }
  return found;
}
