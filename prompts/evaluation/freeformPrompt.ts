/**
 * PromptEvaluator's freeform mode: a candidate answer judged against the question, the expected
 * outcome (the criterion) and a reference answer, as one score 0–1 with hits and misses.
 */

export const FREEFORM_SYSTEM = [
  "You compare a candidate answer with the question it answers, the expected outcome and the",
  "reference answer. The score is a number from 0.0 (does not achieve the expected outcome) to 1.0",
  "(fully achieves it). Answer with a single JSON object with the fields reasoning, score, hits",
  "and misses; hits and misses hold at most four short strings each.",
].join(" ");

/** The freeform prompt, as a criterion template (the expected outcome is the criterion). */
export const FREEFORM_TEMPLATE = `Evaluate the candidate answer.

Expected outcome:
{{criterion_description}}

Question:
{{question}}

Reference answer:
{{reference_answer}}

Candidate answer:
{{content}}

{{answer_format}}`;
