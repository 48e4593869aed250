import { z } from "zod";
import type {
  PointFunctionContext,
  PointFunctionError,
  PointFunctionResult,
  PointFunctionSpec,
} from "./contract.js";
import { levenshteinSimilarity, rougeL, wordsOf } from "./similarity.js";

/** Similarity to a reference answer (the args' own, else the evaluation's); with `min`, whether it reaches it. */
const threshold = z.number().min(0).max(1);

function hasWord(reference: string | undefined): boolean {
  return reference === undefined || wordsOf(reference).length > 0;
}
const NO_WORD = "the reference has no word (letters or digits) to compare with";

const noArgs = z.union([z.undefined(), z.null()]);

const rougeArgs = z.union([
  noArgs,
  z.string().min(1).refine(hasWord, { message: NO_WORD }),
  z
    .strictObject({ reference: z.string().min(1).optional(), min: threshold.optional() })
    .refine((args) => hasWord(args.reference), { message: NO_WORD }),
]);
type RougeArgs = z.infer<typeof rougeArgs>;

/** No args, a reference text, or `{ reference?, min? }` with the function's own options. */
export function referenceArgs<Shape extends z.ZodRawShape>(options: Shape) {
  const reference = z.string().min(1);
  return z.union([
    noArgs,
    reference,
    z.strictObject({ reference: reference.optional(), min: threshold.optional(), ...options }),
  ]);
}

const levenshteinArgs = referenceArgs({ ignoreCase: z.boolean().optional() });
type LevenshteinArgs = z.infer<typeof levenshteinArgs>;

export interface ReferenceOptions {
  reference?: string | undefined;
  min?: number | undefined;
  ignoreCase?: boolean | undefined;
  model?: string | undefined;
}

export function optionsOf(args: string | ReferenceOptions | null | undefined): ReferenceOptions {
  if (typeof args === "string") return { reference: args };
  return args ?? {};
}

export const NO_REFERENCE =
  "no reference answer: give one in the args ({ reference }), or evaluate with a reference " +
  "(a LangSmith example's reference outputs, a blueprint prompt's ideal, FunctionRegistry's reference)";

/** Scores the text against the args' reference, else the evaluation's; an error without one. */
function againstReference(
  args: string | ReferenceOptions | null | undefined,
  context: PointFunctionContext,
  similarity: (reference: string, options: ReferenceOptions) => number | PointFunctionError,
): PointFunctionResult {
  const options = optionsOf(args);
  const reference = options.reference ?? context.reference;
  if (reference === undefined) return { error: NO_REFERENCE };
  const found = similarity(reference, options);
  return typeof found === "number" ? scored(found, options.min) : found;
}

/** Within 1e-12, so a similarity worked out by hand as exactly `min` (0.49999999999999994) reaches it. */
export function scored(similarity: number, min: number | undefined): PointFunctionResult {
  return min === undefined ? similarity : similarity >= min - 1e-12;
}

const rouge_l: PointFunctionSpec<RougeArgs> = {
  argsSchema: rougeArgs,
  expects:
    'a reference text, { reference?, min? } (e.g. { "reference": "…", "min": 0.5 }), or nothing (the evaluation\'s reference)',
  description:
    "ROUGE-L F-measure (0–1) of the text against the reference: the longest common subsequence " +
    "of lower-cased words; with min, whether it reaches min.",
  evaluate: (text, args, context) =>
    againstReference(args, context, (reference) => {
      if (wordsOf(reference).length === 0) return { error: NO_WORD };
      const rouge = rougeL(text, reference);
      return "tooLarge" in rouge ? { error: `too long to compare: ${rouge.tooLarge}` } : rouge.f;
    }),
};

const levenshtein_similarity: PointFunctionSpec<LevenshteinArgs> = {
  argsSchema: levenshteinArgs,
  expects:
    "a reference text, { reference?, min?, ignoreCase? }, or nothing (the evaluation's reference)",
  description:
    "1 − Levenshtein distance / the longer length, on characters, surrounding whitespace " +
    "ignored (0–1); with min, whether it reaches min.",
  evaluate: (text, args, context) =>
    againstReference(args, context, (reference, options) => {
      const fold = (value: string) => (options.ignoreCase === true ? value.toLowerCase() : value);
      const result = levenshteinSimilarity(fold(text.trim()), fold(reference.trim()));
      if (!("tooLarge" in result)) return result.similarity;
      return { error: `too long to compare: ${result.tooLarge}; rouge_l compares long texts` };
    }),
};

export const REFERENCE_POINT_FUNCTIONS = {
  rouge_l,
  levenshtein_similarity,
} as const;
