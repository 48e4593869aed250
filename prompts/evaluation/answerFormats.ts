import { describeScale, type PromptScale } from "./scale.js";

/**
 * The answer contracts. The shapes shown are deliberately not valid JSON (placeholders in angle
 * brackets, alternatives with `|`), so an answer that merely echoes the format is never taken for
 * an answer.
 */

/** The reasoning is written first and kept short: it is read by people and paid per token. */
export const REASONING_WORD_LIMIT = 30;

const QUOTE_RULE =
  '"quotes" copies, word for word, up to three short passages of the content that your verdict ' +
  "rests on (use [] when the content has nothing to quote); every quote is checked against the content.";

/** Hits and misses, when asked for: at most this many each, a few words each. */
export const ANSWER_LIST_LIMIT = 2;

const REASONING_RULE = `"reasoning" comes first: at most ${REASONING_WORD_LIMIT} words, naming the evidence.`;

function listRule(limit: number): string {
  const most = limit === 4 ? "four" : String(limit);
  return (
    `"hits" lists what the content does well for this criterion and "misses" what is missing or ` +
    `weak: at most ${most} each, a few words each (use [] when there is none).`
  );
}

export interface ScoreAnswerFormatOptions {
  /** Ask for hits and misses (the review view shows them as strengths and weaknesses). */
  lists?: boolean;
  /** At most this many hits and misses each (default ANSWER_LIST_LIMIT). */
  listLimit?: number;
}

/** score / point / freeform: reasoning, a native score, and (unless turned off) hits and misses. */
export function scoreAnswerFormat(
  scale: PromptScale,
  options: ScoreAnswerFormatOptions = {},
): string {
  const lists = options.lists ?? true;
  const shape = lists
    ? `{"reasoning": "<your reasoning, with evidence>", "quotes": [<passages of the content>], "score": <${describeScale(scale)}>, "hits": [<strings>], "misses": [<strings>]}`
    : `{"reasoning": "<your reasoning, with evidence>", "quotes": [<passages of the content>], "score": <${describeScale(scale)}>}`;
  return [
    "Answer format — exactly one JSON object, with the reasoning first:",
    shape,
    `"score" is a JSON number, ${describeScale(scale)}. ${REASONING_RULE}${lists ? ` ${listRule(options.listLimit ?? ANSWER_LIST_LIMIT)}` : ""}`,
    QUOTE_RULE,
  ].join("\n");
}

/** check: reasoning, then pass or fail. */
export function checkAnswerFormat(): string {
  return [
    "Answer format — exactly one JSON object, with the reasoning first:",
    '{"reasoning": "<your reasoning, with evidence>", "quotes": [<passages of the content>], "result": "pass" | "fail"}',
    `"result" is the string "pass" when the requirement is met and "fail" when it is not met or not shown. ${REASONING_RULE}`,
    QUOTE_RULE,
  ].join("\n");
}

/** levels: reasoning, then exactly one of the level ids. */
export function levelsAnswerFormat(levelIds: readonly string[]): string {
  const ids = levelIds.map((id) => JSON.stringify(id)).join(" | ");
  return [
    "Answer format — exactly one JSON object, with the reasoning first:",
    `{"reasoning": "<your reasoning, with evidence>", "quotes": [<passages of the content>], "level_id": ${ids}}`,
    `"level_id" is exactly one of the level ids listed above, written as a JSON string. ${REASONING_RULE}`,
    QUOTE_RULE,
  ].join("\n");
}

/** The repair request when an answer gave a decision without reasoning. */
export function reasoningRepairPrompt(): string {
  return [
    "Your answer gave no reasoning. Every judgement must be justified.",
    "Answer again in the same format, with the reasoning (citing the evidence) filled in.",
  ].join(" ");
}
