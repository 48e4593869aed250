/** Rubric mode: every rubric item checked, pass or fail, in one answer. */

export const RUBRIC_SYSTEM = [
  "You check a candidate answer against a list of rubric items. Decide each item on its own:",
  "an item passes only when the candidate answer satisfies it. Required items matter most.",
].join(" ");

export const RUBRIC_TEMPLATE = `Check the candidate answer against each rubric item.

Question:
{{question}}

Reference answer:
{{reference_answer}}

Rubric items:
{{rubric_items}}

Candidate answer:
{{candidate_answer}}

{{answer_format}}`;

export interface PromptRubricItem {
  id: string;
  outcome: string;
  required: boolean;
}

/** One line per rubric item: id, whether it is required, the expected outcome. */
export function rubricItemsList(items: readonly PromptRubricItem[]): string {
  return items
    .map((item) => `- ${item.id}${item.required ? " (required)" : ""}: ${item.outcome.trim()}`)
    .join("\n");
}
