import { SCREENING_LINE } from "./injectionGuardPrompt.js";

/**
 * Batch mode: every LLM criterion of a catalog in one call, answered as a TOON table whose header
 * the prompt gives. Output tokens dominate a local model's latency, and a TOON row carries no keys.
 */

export const TOON_TABLE_RULE = [
  "Answer with exactly the TOON table asked for — after the one-line JSON screening answer when the",
  "answer format asks for one — and nothing else: no prose before or after it and no code fence.",
  "The table's first line is the header exactly as given; then one row per criterion, each",
  "indented by two spaces, with the values separated by commas, in the order of the header. Write",
  'the quotes and the reasoning in double quotes and escape a double quote inside them as \\".',
  "Reason before you score: decide each value only after you have written down the evidence for it.",
].join(" ");

export const BATCH_TEMPLATE = `Content under evaluation:
{{content}}

{{context}}

{{beside}}

Evaluate the content above against each of the following {{count}} criteria.

{{criteria}}

{{screening}}

{{answer_format}}`;

/** A batch row quotes the content at most this many times, … */
export const TABLE_QUOTE_LIMIT = 2;
/**
 * … each quote about this many words at most (a longer one is still checked; a group's rows are
 * written one after another on one slot, so every word is on the call's critical path), …
 */
export const TABLE_QUOTE_WORDS = 12;
/** … the quotes of one cell separated by this mark. */
export const TABLE_QUOTE_SEPARATOR = " | ";

/**
 * A table row's reasoning: at most this many words. Shorter than a single answer's (its quotes
 * column carries the evidence, and a group's rows are written one after another on one server
 * slot, so every word of every row is on the call's critical path).
 */
export const TABLE_REASONING_WORD_LIMIT = 20;

/** The header every batch answer must start with. */
export function batchHeader(count: number): string {
  return `results[${count}]{id,score,quotes,reasoning}:`;
}

/**
 * The answer contract of batch mode: the table header and what each cell holds; with `screening`,
 * the screening line (the guard's answer) comes first.
 */
export function batchAnswerFormat(ids: readonly string[], screening = false): string {
  return [
    screening
      ? "Answer format — first the screening line, then exactly this TOON table, one row per criterion in this order:"
      : "Answer format — exactly this TOON table, one row per criterion in this order:",
    `${ids.join(", ")}.`,
    ...(screening ? [SCREENING_LINE] : []),
    batchHeader(ids.length),
    '  <id>,<score>,"<passages of the content>","<reasoning, with evidence>"',
    "`score` is what each criterion asks for: a number on its scale, pass or fail, or one level id.",
    `\`quotes\` copies, word for word, at most ${TABLE_QUOTE_LIMIT} passages of the content the score rests on,`,
    `each at most ${TABLE_QUOTE_WORDS} words, separated by "${TABLE_QUOTE_SEPARATOR.trim()}" ("" when there is nothing to quote);`,
    "every quote is checked against the content.",
    `Each reasoning: at most ${TABLE_REASONING_WORD_LIMIT} words, naming the evidence without repeating the quotes.`,
  ].join("\n");
}

/** The follow-up sent once when a batch answer could not be decoded. */
export function batchRepairPrompt(problem: string, ids: readonly string[]): string {
  return [
    `Your answer could not be read: ${problem}.`,
    "Answer again with only the table, nothing before or after it:",
    batchHeader(ids.length),
    `with exactly one row for each of: ${ids.join(", ")}.`,
  ].join("\n");
}
