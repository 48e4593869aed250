import type { HumanInterrupt } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import type { EvaluationResult } from "../scoring/result.js";
import { inboxDescription } from "./inboxDescription.js";
import { type InterruptMetadata, type ReviewDecision, ReviewDecisionSchema } from "./model.js";
import { EditContentSchema, FeedbackSchema } from "./reviewInput.js";

/** The action request Agent Inbox sends back with an edit: its content is the edit. */
const ActionRequestSchema = z.object({
  action: z.string().max(1_000),
  args: z.looseObject({ content: EditContentSchema }),
});

/** The action request as shown, which Agent Inbox sends back with an accept: never read. */
const ShownRequestSchema = z.object({
  action: z.string().max(1_000),
  args: z.record(z.string(), z.unknown()),
});

/** LangGraph's prebuilt `HumanResponse`, what Agent Inbox sends (`ignore` is refused). */
const HumanResponseSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("accept"),
    args: z.union([z.null(), ShownRequestSchema]).optional(),
  }),
  z.object({ type: z.literal("ignore"), args: z.null().optional() }),
  z.object({ type: z.literal("response"), args: FeedbackSchema }),
  z.object({ type: z.literal("edit"), args: ActionRequestSchema }),
]);

/** Agent Inbox resumes with a list of one HumanResponse: the one response is the answer. */
function oneOfList(value: unknown, ctx: z.core.$RefinementCtx): unknown {
  if (!Array.isArray(value)) return value;
  if (value.length === 1) return value[0];
  ctx.addIssue({
    code: "custom",
    message: `a review takes one answer; the list holds ${value.length} (Agent Inbox sends a list of one response)`,
  });
  return z.NEVER;
}

/** A review's resume value before its own checks: a ReviewDecision or a HumanResponse. */
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

/** Content as the text a person edits: text as it is, structured content as indented JSON. */
export function editableText(content: unknown): string {
  if (typeof content === "string") return content;
  if (content === undefined || content === null) return "";
  return JSON.stringify(content, null, 2);
}

/** The review as LangGraph's prebuilt `HumanInterrupt`, what Agent Inbox shows; ignore is never allowed. */
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
