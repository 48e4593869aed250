import { z } from "zod";

/**
 * One passage a judge quoted for its verdict, checked against the content: `verified` when the
 * content says it (word for word after whitespace and case normalisation, or nearly so),
 * `similarity` the share of the quote's words found together in the best-matching stretch.
 */
export const QuoteCheckSchema = z.object({
  text: z.string(),
  verified: z.boolean(),
  similarity: z.number().min(0).max(1),
  /** Which judge of a panel quoted it (absent for a single judge). */
  judge: z.string().optional(),
});
export type QuoteCheck = z.infer<typeof QuoteCheckSchema>;

/** How many quotes of an evaluation were checked, and how many the content does not contain. */
export const EvidenceSummarySchema = z.object({
  quotes: z.number().int().min(0),
  verified: z.number().int().min(0),
  unverified: z.number().int().min(0),
});
export type EvidenceSummary = z.infer<typeof EvidenceSummarySchema>;
