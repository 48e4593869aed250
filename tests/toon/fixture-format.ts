import { z } from "zod";

/** One case of a TOON fixture file (the spec's tests/fixtures format, plus our error fields). */
export const ToonFixtureCaseSchema = z.object({
  name: z.string().min(1),
  input: z.unknown(),
  expected: z.unknown(),
  shouldError: z.boolean().optional(),
  options: z
    .object({
      delimiter: z.enum([",", "\t", "|"]).optional(),
      indentSize: z.number().int().min(1).optional(),
      strict: z.boolean().optional(),
      stringFields: z.array(z.string()).optional(),
      source: z.string().optional(),
    })
    .strict()
    .optional(),
  specSection: z.string().optional(),
  note: z.string().optional(),
  minSpecVersion: z.string().optional(),
  /** Ours: the 1-based original line a decode error must report. */
  errorLine: z.number().int().min(1).optional(),
  /** Ours: text the error message must contain. */
  errorMessage: z.string().optional(),
});
export type ToonFixtureCase = z.infer<typeof ToonFixtureCaseSchema>;

export const ToonFixtureFileSchema = z.object({
  version: z.string().regex(/^\d+\.\d+$/),
  category: z.enum(["encode", "decode"]),
  description: z.string().min(1),
  tests: z.array(ToonFixtureCaseSchema).min(1),
});
export type ToonFixtureFile = z.infer<typeof ToonFixtureFileSchema>;
