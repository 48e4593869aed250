import { z } from "zod";
import type { PointFunctionError, PointFunctionSpec } from "./contract.js";
import { caseTwins } from "./text.js";
import { compileUserPattern, patternProblem } from "./userPattern.js";

/** Point functions that test regular expressions, matched in linear time (userPattern.ts). */

const pattern = z
  .string()
  .min(1)
  .superRefine((source, ctx) => {
    const problem = patternProblem(source);
    if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
  });
const patternList = z.array(pattern).min(1);

function matchesOne(
  text: string,
  source: string,
  ignoreCase: boolean,
): boolean | PointFunctionError {
  const compiled = compileUserPattern(source, { ignoreCase });
  if ("problem" in compiled) {
    return { error: `invalid regular expression ${JSON.stringify(source)}: ${compiled.problem}` };
  }
  return compiled.pattern.test(text);
}

function fractionMatching(text: string, sources: readonly string[]): number | PointFunctionError {
  let matched = 0;
  for (const source of sources) {
    const result = matchesOne(text, source, false);
    if (typeof result !== "boolean") return result;
    if (result) matched += 1;
  }
  return matched / sources.length;
}

const [matches, imatches] = caseTwins(
  { argsSchema: pattern, expects: "a valid regular expression string" },
  "The text matches the regular expression",
  matchesOne,
);

const matches_all_of: PointFunctionSpec<string[]> = {
  argsSchema: patternList,
  expects: "a non-empty array of valid regular expression strings",
  description: "The fraction (0–1) of the regular expressions the text matches.",
  evaluate: (text, sources) => fractionMatching(text, sources),
};

const matches_any_of: PointFunctionSpec<string[]> = {
  argsSchema: patternList,
  expects: "a non-empty array of valid regular expression strings",
  description: "The text matches at least one of the regular expressions.",
  evaluate: (text, sources) => {
    const fraction = fractionMatching(text, sources);
    return typeof fraction === "number" ? fraction > 0 : fraction;
  },
};

export const PATTERN_POINT_FUNCTIONS = {
  matches,
  imatches,
  matches_all_of,
  matches_any_of,
} as const;
