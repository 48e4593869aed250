import type { Catalog } from "../../criteria/model.js";
import { deterministicSummary, type SummaryInput } from "../../scoring/deterministicSummary.js";

/**
 * The outcome line of a levels rubric summary: `Evaluation PASSED for rubric 'Content Quality'.`
 */
export function rubricOutcomeLine(catalogName: string, passed: boolean): string {
  return `Evaluation ${passed ? "PASSED" : "FAILED"} for rubric '${catalogName}'.`;
}

/**
 * The levels rubric's deterministic summary in its own words: the scoring module's template summary
 * (overall score, one line per criterion, suggestions), opened with the rubric outcome line.
 */
export function rubricSummary(catalog: Catalog, evaluation: SummaryInput): string {
  const [, ...rest] = deterministicSummary(catalog, evaluation).split("\n");
  return [rubricOutcomeLine(catalog.name, evaluation.passed), ...rest].join("\n");
}

/**
 * The summary to report: the model's, when the engine got one, else the deterministic one.
 * The engine keeps its deterministic summary when no model summary was asked for or the model
 * could not give one; that text is recognised exactly and given the rubric wording.
 */
export function rubricFeedback(
  catalog: Catalog,
  evaluation: SummaryInput & { feedback: string },
): string {
  if (evaluation.feedback === deterministicSummary(catalog, evaluation)) {
    return rubricSummary(catalog, evaluation);
  }
  return evaluation.feedback;
}
