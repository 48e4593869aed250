import { z } from "zod";
import type { PointFunctionError, PointFunctionSpec } from "./pointFunction.js";

/** Point functions that test regular expressions (JavaScript syntax). */

function isRegularExpression(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

const pattern = z.string().min(1).refine(isRegularExpression, {
  message: "not a valid regular expression (JavaScript syntax)",
});
const patternList = z.array(pattern).min(1);

function compile(source: string, flags: string): RegExp | PointFunctionError {
  try {
    return new RegExp(source, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { error: `invalid regular expression ${JSON.stringify(source)}: ${reason}` };
  }
}

/** The fraction of the patterns that match, or the first compile error. */
function fractionMatching(
  text: string,
  sources: readonly string[],
  flags: string,
): number | PointFunctionError {
  let matched = 0;
  for (const source of sources) {
    const regex = compile(source, flags);
    if (!(regex instanceof RegExp)) return regex;
    if (regex.test(text)) matched += 1;
  }
  return matched / sources.length;
}

function matchesOne(text: string, source: string, flags: string): boolean | PointFunctionError {
  const regex = compile(source, flags);
  return regex instanceof RegExp ? regex.test(text) : regex;
}

const matches: PointFunctionSpec<string> = {
  argsSchema: pattern,
  expects: "a valid regular expression string",
  description: "The text matches the regular expression (case-sensitive).",
  evaluate: (text, source) => matchesOne(text, source, ""),
};

const imatches: PointFunctionSpec<string> = {
  argsSchema: pattern,
  expects: "a valid regular expression string",
  description: "The text matches the regular expression, ignoring case.",
  evaluate: (text, source) => matchesOne(text, source, "i"),
};

const matches_all_of: PointFunctionSpec<string[]> = {
  argsSchema: patternList,
  expects: "a non-empty array of valid regular expression strings",
  description: "The fraction (0–1) of the regular expressions the text matches.",
  evaluate: (text, sources) => fractionMatching(text, sources, ""),
};

const matches_any_of: PointFunctionSpec<string[]> = {
  argsSchema: patternList,
  expects: "a non-empty array of valid regular expression strings",
  description: "The text matches at least one of the regular expressions.",
  evaluate: (text, sources) => {
    const fraction = fractionMatching(text, sources, "");
    return typeof fraction === "number" ? fraction > 0 : fraction;
  },
};

export const PATTERN_POINT_FUNCTIONS = {
  matches,
  imatches,
  matches_all_of,
  matches_any_of,
} as const;
