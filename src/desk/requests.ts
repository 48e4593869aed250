/**
 * What a client may send the review desk: the HTTP request bodies and queries (`POST
 * /api/proposals`, a decision, a page of a list), each checked by its schema before the desk sees it.
 */
import { z } from "zod";
import {
  CommentSchema,
  EditContentSchema,
  FeedbackSchema,
  InterruptIdSchema,
  ReviewCorrectionListSchema,
} from "../graph/reviewInput.js";
import { REVIEW_ACTIONS } from "../scoring/calibrationLabel.js";

const DIGITS = /^(0|[1-9][0-9]{0,14})$/;

/**
 * A whole number from `min` to `max`: a number given as a number (a library caller's page
 * request) if whole, or read from a query string strictly — decimal digits only, so `1e3`,
 * `0x10`, ` 10`, `10.0`, `+5` or `010` are refused rather than read (what `Number()` would do).
 */
export function wholeNumberParam(min: number, max: number) {
  const range = z.number().int().min(min).max(max);
  return z.union([
    range,
    z
      .string()
      .regex(DIGITS, `a whole number from ${min} to ${max}, in decimal digits`)
      .transform(Number)
      .pipe(range),
  ]);
}

/**
 * Longest text accepted in a request body field (an RFP, an applicant profile); what a reviewer
 * sends with a decision has the review boundary's limits (graph/reviewInput.ts).
 */
export const MAX_TEXT_CHARS = 200_000;

/** `POST /api/proposals`: start writing a proposal; the graph runs to its first review in a job. */
export const StartProposalSchema = z.strictObject({
  rfp: z.string().min(1).max(MAX_TEXT_CHARS),
  applicant: z.string().min(1).max(MAX_TEXT_CHARS),
  title: z.string().min(1).max(200).optional(),
});
export type StartProposal = z.infer<typeof StartProposalSchema>;

/**
 * `POST /api/reviews/:threadId/decisions`: a reviewer's decision on the pending interrupt, its
 * fields checked by the review boundary's schemas (reviewInput.ts): feedback and comments with
 * visible text and no control characters (at most 20,000 characters), content of at most 1 MiB
 * without NUL or other control characters, bounded ids and notes.
 */
export const DecisionRequestSchema = z.strictObject({
  interruptId: InterruptIdSchema,
  action: z.enum(REVIEW_ACTIONS),
  feedback: FeedbackSchema.optional(),
  /**
   * With edit: the new content as text; structured content (the research, the solution, the
   * connection pairs) may also be given as the JSON object or list itself, read as its JSON text
   * and checked like it (size, depth, the stage's schema).
   */
  content: z
    .preprocess(
      (value) => (typeof value === "object" && value !== null ? JSON.stringify(value) : value),
      EditContentSchema,
    )
    .optional(),
  comment: CommentSchema.optional(),
  /**
   * With approve, revise or edit: criteria whose score is wrong, each with the right `score` on
   * the criterion's own scale (2 on a 1–5 criterion, 0.4 on a 0–1 one) or `level` (a level id,
   * or pass/fail for a check), and an optional note.
   */
  corrections: ReviewCorrectionListSchema.optional(),
});
export type DecisionRequest = z.infer<typeof DecisionRequestSchema>;

/** `?limit=&cursor=` of the review queue. */
export const PageRequestSchema = z.object({
  limit: wholeNumberParam(1, 200).default(50),
  cursor: z.string().max(200).optional(),
});
export type PageRequest = z.infer<typeof PageRequestSchema>;

/** `?limit=&cursor=` of the list of finished proposals. */
export const ThreadListRequestSchema = PageRequestSchema;
export type ThreadListRequest = z.infer<typeof ThreadListRequestSchema>;
