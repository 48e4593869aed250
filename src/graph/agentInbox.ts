import type { HumanInterrupt } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import type { EvaluationResult } from "../scoring/result.js";
import { inboxDescription } from "./inboxDescription.js";
import { type InterruptMetadata, type ReviewDecision, ReviewDecisionSchema } from "./model.js";
import { EditContentSchema, FeedbackSchema } from "./reviewInput.js";

/** The action request Agent Inbox sends back with an edit (and with an accept of an editable review). */
const ActionRequestSchema = z.object({
  action: z.string().max(1_000),
  args: z.looseObject({ content: EditContentSchema }),
});

/**
 * A reviewer's answer in the shape of LangGraph's prebuilt `HumanResponse` (what Agent Inbox
 * sends): accept → approve (Agent Inbox sends the unedited action request along when the review
 * is also editable; it is not read); response → revise, the text being the feedback; edit → edit,
 * the edited `content` argument being the new content; ignore → refused, and the review asks
 * again (reviewAnswer.ts).
 */
export const HumanResponseSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("accept"),
    args: z.union([z.null(), ActionRequestSchema]).optional(),
  }),
  z.object({ type: z.literal("ignore"), args: z.null().optional() }),
  z.object({ type: z.literal("response"), args: FeedbackSchema }),
  z.object({ type: z.literal("edit"), args: ActionRequestSchema }),
]);
export type HumanResponse = z.infer<typeof HumanResponseSchema>;

/**
 * Agent Inbox resumes with a list of one HumanResponse (`[{ type: "accept", args: null }]`): the
 * one response is the answer. A list of any other length is refused.
 */
function oneOfList(value: unknown, ctx: z.core.$RefinementCtx): unknown {
  if (!Array.isArray(value)) return value;
  if (value.length === 1) return value[0];
  ctx.addIssue({
    code: "custom",
    message: `a review takes one answer; the list holds ${value.length} (Agent Inbox sends a list of one response)`,
  });
  return z.NEVER;
}

/**
 * What a review accepts as its resume value, before the review's own checks: a ReviewDecision,
 * or a HumanResponse. The one shape the resume guard and the review node both hold answers to.
 */
export const ReviewResponseSchema = z.preprocess(
  oneOfList,
  z.union([ReviewDecisionSchema, HumanResponseSchema]),
);
export type ReviewResponse = z.output<typeof ReviewResponseSchema>;

/** The decision a HumanResponse stands for; undefined for `ignore`, which no review offers. */
export function decisionOf(response: ReviewResponse): ReviewDecision | undefined {
  if ("action" in response) return response;
  switch (response.type) {
    case "accept":
      return { action: "approve" };
    case "response":
      return { action: "revise", feedback: response.args };
    case "edit":
      return { action: "edit", content: response.args.args.content };
    case "ignore":
      return undefined;
  }
}

/** Content as the reviewer edits it: text as it is, anything else as JSON. */
function editableText(content: unknown): string {
  if (typeof content === "string") return content;
  if (content === undefined || content === null) return "";
  return JSON.stringify(content, null, 2);
}

/**
 * The review as LangGraph's prebuilt `HumanInterrupt` (what Agent Inbox shows): the action is
 * the review's title, its arguments the content to edit and the evaluation's outcome; accept,
 * respond and edit are allowed as the review offers approve, revise and edit; ignore never. The
 * description is Markdown: why the last answer was refused (when the review asks again), the
 * review's own description, the evaluation (`result`: the one the review is about) with its
 * criteria against their thresholds and its warnings, and what each button does.
 */
export function humanInterruptOf(
  metadata: InterruptMetadata,
  content: unknown,
  refused: (decision: ReviewDecision) => string | undefined,
  result: EvaluationResult | null = metadata.evaluation,
): HumanInterrupt {
  const evaluation = metadata.evaluation ?? metadata.evaluationRef ?? null;
  const allowed = {
    respond: refused({ action: "revise", feedback: "-" }) === undefined,
    edit: refused({ action: "edit", content: "-" }) === undefined,
    accept: refused({ action: "approve" }) === undefined,
  };
  return {
    action_request: {
      action: metadata.title,
      args: {
        content: editableText(content),
        ...(evaluation === null
          ? {}
          : {
              overallScore: evaluation.overallScore,
              passed: evaluation.passed,
              verdict: evaluation.verdict,
              ...(evaluation.status === undefined ? {} : { status: evaluation.status }),
            }),
      },
    },
    config: {
      allow_ignore: false,
      allow_respond: allowed.respond,
      allow_edit: allowed.edit,
      allow_accept: allowed.accept,
    },
    description: inboxDescription(metadata.description, result, allowed, metadata.refusal),
  };
}
