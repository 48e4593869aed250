import { describeScale, type PromptScale } from "./scale.js";

/**
 * The answer contracts. The shapes shown are deliberately not valid JSON (placeholders in angle
 * brackets, alternatives with `|`), so an answer that merely echoes the format is never taken for
 * an answer.
 */

const LIST_RULE =
  '"hits" lists what the content does well for this criterion and "misses" what is missing or ' +
  "weak: short strings, at most four each (use [] when there is none).";

const QUOTE_RULE =
  '"quotes" copies, word for word, up to three short passages of the content that your verdict ' +
  "rests on (use [] when the content has nothing to quote); every quote is checked against the content.";

/** score / point / freeform: reasoning, a native score, hits and misses. */
export function scoreAnswerFormat(scale: PromptScale): string {
  return [
    "Answer format — exactly one JSON object, with the reasoning first:",
    `{"reasoning": "<your reasoning, with evidence>", "quotes": [<passages of the content>], "score": <${describeScale(scale)}>, "hits": [<strings>], "misses": [<strings>]}`,
    `"score" is a JSON number, ${describeScale(scale)}. ${LIST_RULE}`,
    QUOTE_RULE,
  ].join("\n");
}

/** check: reasoning, then pass or fail. */
export function checkAnswerFormat(): string {
  return [
    "Answer format — exactly one JSON object, with the reasoning first:",
    '{"reasoning": "<your reasoning, with evidence>", "quotes": [<passages of the content>], "result": "pass" | "fail"}',
    '"result" is the string "pass" when the requirement is met and "fail" when it is not met or not shown.',
    QUOTE_RULE,
  ].join("\n");
}

/** levels: reasoning, then exactly one of the level ids. */
export function levelsAnswerFormat(levelIds: readonly string[]): string {
  const ids = levelIds.map((id) => JSON.stringify(id)).join(" | ");
  return [
    "Answer format — exactly one JSON object, with the reasoning first:",
    `{"reasoning": "<your reasoning, with evidence>", "quotes": [<passages of the content>], "level_id": ${ids}}`,
    '"level_id" is exactly one of the level ids listed above, written as a JSON string.',
    QUOTE_RULE,
  ].join("\n");
}

/** Rubric mode: every rubric item checked, each with its own reasoning first. */
export function rubricAnswerFormat(itemIds: readonly string[]): string {
  return [
    "Answer format — exactly one JSON object, with the reasoning first:",
    '{"reasoning": "<overall reasoning>", "checks": [{"id": "<rubric item id>", "reasoning": "<why>", "result": "pass" | "fail"}, <one entry per item>]}',
    `"checks" has one entry for each rubric item, in this order: ${itemIds.join(", ")}.`,
    '"result" is "pass" when the candidate answer satisfies the item and "fail" otherwise.',
  ].join("\n");
}

/** The repair request when an answer gave a decision without reasoning. */
export function reasoningRepairPrompt(): string {
  return [
    "Your answer gave no reasoning. Every judgement must be justified.",
    "Answer again in the same format, with the reasoning (citing the evidence) filled in.",
  ].join(" ");
}
