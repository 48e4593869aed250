/** What a client may send the review desk, each checked by its schema before the desk sees it. */
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

/** A whole number, or a query string of decimal digits only (`1e3`, `0x10`, `010` are refused). */
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

/** Longest RFP or applicant text; a decision's fields have the review boundary's limits. */
export const MAX_TEXT_CHARS = 200_000;

/** `POST /api/proposals`: the graph runs to its first review in a job. */
export const StartProposalSchema = z.strictObject({
  rfp: z.string().min(1).max(MAX_TEXT_CHARS),
  applicant: z.string().min(1).max(MAX_TEXT_CHARS),
  title: z.string().min(1).max(200).optional(),
});
export type StartProposal = z.infer<typeof StartProposalSchema>;

const StructuredEditSchema = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);

/** An edit's content: text by the review boundary's schema, or a JSON object or list as it is. */
function editContent(value: unknown, ctx: z.RefinementCtx) {
  const fields = typeof value === "object" && value !== null;
  const read = (fields ? StructuredEditSchema : EditContentSchema).safeParse(value);
  if (read.success) return read.data;
  for (const { message, path } of read.error.issues)
    ctx.addIssue({ code: "custom", message, path });
  return z.NEVER;
}

/** `POST /api/reviews/:threadId/decisions`, its fields checked by the review boundary's schemas. */
export const DecisionRequestSchema = z.strictObject({
  interruptId: InterruptIdSchema,
  action: z.enum(REVIEW_ACTIONS),
  feedback: FeedbackSchema.optional(),
  /** With edit: the new content as text, or structured content as its JSON object or list. */
  content: z.unknown().transform(editContent).optional(),
  comment: CommentSchema.optional(),
  /** With approve, revise or edit: the right `score` on the criterion's scale, or `level`. */
  corrections: ReviewCorrectionListSchema.optional(),
});
export type DecisionRequest = z.infer<typeof DecisionRequestSchema>;

/** `?limit=&cursor=` of the review queue and of the finished proposals. */
export const PageRequestSchema = z.object({
  limit: wholeNumberParam(1, 200).default(50),
  cursor: z.string().max(200).optional(),
});
export type PageRequest = z.infer<typeof PageRequestSchema>;
