/** When a PromptEvaluator judgement contradicts itself, the reasons to hold it for a human. */
import { reasoningContradiction } from "../reasoningCheck.js";
import type { PromptEvaluation } from "./promptEvaluatorSchema.js";

/** Whether a verdict passes: pass yes, fail no, borderline and error undecided. */
function passes(verdict: PromptEvaluation["verdict"]): boolean | null {
  return verdict === "pass" ? true : verdict === "fail" ? false : null;
}

/**
 * The contradictions between reasoning and result: the free-form verdict against its reasoning,
 * and each rubric item's pass or fail against the item's own reasoning.
 */
export function reasoningHolds(evaluation: PromptEvaluation): string[] {
  if (evaluation.mode === "freeform") {
    const found = reasoningContradiction(
      evaluation.reasoning,
      passes(evaluation.verdict),
      String(evaluation.score),
    );
    return found === undefined ? [] : [`the evaluation: ${found}`];
  }
  return (evaluation.rubricResults ?? []).flatMap((item) => {
    const met = item.result === "error" ? null : item.result === "pass";
    const found = reasoningContradiction(item.reasoning, met, item.result);
    return found === undefined ? [] : [`rubric item ${item.id}: ${found}`];
  });
}
