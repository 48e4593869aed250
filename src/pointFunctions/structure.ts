import { z } from "zod";
import type { PointFunctionSpec } from "./contract.js";

/** Point functions about the shape of the text: its length in words, whether it is JSON. */

const wordRange = z
  .tuple([z.number().int().min(0), z.number().int().min(0)])
  .refine(([min, max]) => min <= max, { message: "the minimum is above the maximum" });

function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === "" ? 0 : trimmed.split(/\s+/u).length;
}

const word_count_between: PointFunctionSpec<[number, number]> = {
  argsSchema: wordRange,
  expects: "[min, max] with whole numbers 0 ≤ min ≤ max",
  description: "The number of words in the text is between min and max, inclusive.",
  evaluate: (text, [min, max]) => {
    const words = countWords(text);
    return words >= min && words <= max;
  },
};

const is_json: PointFunctionSpec<null | undefined> = {
  argsSchema: z.union([z.null(), z.undefined()]),
  expects: "no args",
  description: "The whole text (surrounding whitespace ignored) parses as JSON.",
  evaluate: (text) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  },
};

export const STRUCTURE_POINT_FUNCTIONS = {
  word_count_between,
  is_json,
} as const;
