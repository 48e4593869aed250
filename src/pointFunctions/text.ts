import { RE2JS } from "re2js";
import { z } from "zod";
import type { PointFunctionResult, PointFunctionSpec } from "./contract.js";

/** Point functions that look for literal text: substrings, whole words, prefixes, suffixes. */

const nonEmptyString = z.string().min(1);
const termList = z.array(nonEmptyString).min(1);
const STRING = "a non-empty string";
const TERMS = "a non-empty array of non-empty strings";

const wordArgs = z.union([
  nonEmptyString,
  z.object({ word: nonEmptyString, ignoreCase: z.boolean().optional() }).strict(),
]);

const atLeastArgs = z
  .tuple([z.number().int().min(1), termList])
  .refine(([n, terms]) => n <= terms.length, { message: "n is more than the number of terms" });

const WORD_CHARACTER = "[\\p{L}\\p{N}_]";
const NOT_WORD_CHARACTER = "[^\\p{L}\\p{N}_]";

/**
 * The word as a whole word for the RE2 engine (linear time): a lookbehind before it, and a
 * non-word character or the end consumed after it (only whether it matches is asked).
 */
function wholeWordPattern(word: string, ignoreCase: boolean): RE2JS {
  const flags = RE2JS.LOOKBEHINDS | (ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  return RE2JS.compile(
    `(?<!${WORD_CHARACTER})${RE2JS.quote(word)}(?:${NOT_WORD_CHARACTER}|$)`,
    flags,
  );
}

function countFound(text: string, terms: readonly string[], ignoreCase: boolean): number {
  const haystack = ignoreCase ? text.toLowerCase() : text;
  return terms.filter((term) => haystack.includes(ignoreCase ? term.toLowerCase() : term)).length;
}

/** A case-sensitive spec and its case-insensitive twin. */
export function caseTwins<Args>(
  spec: Omit<PointFunctionSpec<Args>, "evaluate" | "description">,
  description: string,
  evaluate: (text: string, args: Args, ignoreCase: boolean) => PointFunctionResult,
): [PointFunctionSpec<Args>, PointFunctionSpec<Args>] {
  return [
    {
      ...spec,
      description: `${description} (case-sensitive).`,
      evaluate: (t, a) => evaluate(t, a, false),
    },
    {
      ...spec,
      description: `${description}, ignoring case.`,
      evaluate: (t, a) => evaluate(t, a, true),
    },
  ];
}

const [contains, icontains] = caseTwins(
  { argsSchema: nonEmptyString, expects: STRING },
  "The text contains the string",
  (text, needle, ignoreCase) => countFound(text, [needle], ignoreCase) > 0,
);

const [contains_any_of, icontains_any_of] = caseTwins(
  { argsSchema: termList, expects: TERMS },
  "The text contains at least one of the strings",
  (text, terms, ignoreCase) => countFound(text, terms, ignoreCase) > 0,
);

const [contains_all_of, icontains_all_of] = caseTwins(
  { argsSchema: termList, expects: TERMS },
  "The fraction (0–1) of the strings the text contains",
  (text, terms, ignoreCase) => countFound(text, terms, ignoreCase) / terms.length,
);

const contains_at_least_n_of: PointFunctionSpec<[number, string[]]> = {
  argsSchema: atLeastArgs,
  expects: "[n, [terms]] with n a whole number from 1 to the number of terms",
  description: "The text contains at least n of the strings (case-sensitive).",
  evaluate: (text, [n, terms]) => countFound(text, terms, false) >= n,
};

const contains_word: PointFunctionSpec<z.infer<typeof wordArgs>> = {
  argsSchema: wordArgs,
  expects: 'a word, or { word, ignoreCase? } (e.g. { "word": "AI", "ignoreCase": true })',
  description:
    "The text contains the word (or phrase) as a whole word, not inside a longer word; " +
    "case-sensitive unless ignoreCase is true.",
  evaluate: (text, args) => {
    const word = typeof args === "string" ? args : args.word;
    const ignoreCase = typeof args === "string" ? false : args.ignoreCase === true;
    return wholeWordPattern(word, ignoreCase).test(text);
  },
};

const starts_with: PointFunctionSpec<string> = {
  argsSchema: nonEmptyString,
  expects: STRING,
  description: "The text, leading whitespace ignored, starts with the string.",
  evaluate: (text, prefix) => text.trimStart().startsWith(prefix),
};

const ends_with: PointFunctionSpec<string> = {
  argsSchema: nonEmptyString,
  expects: STRING,
  description: "The text, trailing whitespace ignored, ends with the string.",
  evaluate: (text, suffix) => text.trimEnd().endsWith(suffix),
};

export const TEXT_POINT_FUNCTIONS = {
  contains,
  icontains,
  contains_any_of,
  icontains_any_of,
  contains_all_of,
  icontains_all_of,
  contains_at_least_n_of,
  contains_word,
  starts_with,
  ends_with,
} as const;
