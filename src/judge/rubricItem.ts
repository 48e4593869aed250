import type { Criterion } from "../criteria/model.js";

/** A rubric item: what it asks and whether it is required. */
export interface RubricItem {
  id: string;
  outcome: string;
  required: boolean;
}

/**
 * A criterion as a rubric item: a check's expected outcome (else its description), required when
 * the criterion is critical or a knockout.
 */
export function rubricItemOf(criterion: Criterion): RubricItem {
  const outcome =
    criterion.method.kind === "check"
      ? (criterion.method.expectedOutcome ?? criterion.description)
      : criterion.description;
  return { id: criterion.id, outcome, required: criterion.critical || criterion.knockout };
}
