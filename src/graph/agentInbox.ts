import type { HumanInterrupt } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import type { CorrectionIssue } from "../scoring/recordedCorrections.js";
import { type InterruptMetadata, type ReviewDecision, ReviewDecisionSchema } from "./model.js";

/** The action request Agent Inbox sends back with an edit (and with an accept of an editable review). */
const ActionRequestSchema = z.object({
  action: z.string(),
  args: z.looseObject({ content: z.string().trim().min(1) }),
});

/**
 * A reviewer's answer in the shape of LangGraph's prebuilt `HumanResponse` (what Agent Inbox
 * sends): accept → approve (Agent Inbox sends the unedited action request along when the review
 * is also editable; it is not read); response → revise, the text being the feedback; edit → edit,
 * the edited `content` argument being the new content; ignore → refused (see reviewResponseSchema).
 */
export const HumanResponseSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("accept"),
    args: z.union([z.null(), ActionRequestSchema]).optional(),
  }),
  z.object({ type: z.literal("ignore"), args: z.null().optional() }),
  z.object({ type: z.literal("response"), args: z.string().trim().min(1) }),
  z.object({ type: z.literal("edit"), args: ActionRequestSchema }),
]);
export type HumanResponse = z.infer<typeof HumanResponseSchema>;

/** What a review accepts as its resume value: a ReviewDecision, or a HumanResponse. */
export type ReviewResponse = ReviewDecision | HumanResponse;

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

/** Why a decision's corrections are refused: where (`corrections.<i>.<field>`) and what. */
export type CorrectionRefusal = (decision: ReviewDecision) => CorrectionIssue | undefined;

/**
 * The resume value a review accepts: a ReviewDecision or a HumanResponse, whose decision `refused`
 * does not refuse, with corrections `correctionRefusal` finds nothing wrong with. `ignore` is
 * refused too: a review cannot be skipped, so the thread stays paused.
 */
export function reviewResponseSchema(
  refused: (decision: ReviewDecision) => string | undefined,
  correctionRefusal: CorrectionRefusal = () => undefined,
) {
  const answer = z.union([ReviewDecisionSchema, HumanResponseSchema]);
  return z.preprocess(oneOfList, answer).superRefine((response, ctx) => {
    const decision = decisionOf(response);
    const refusal =
      decision === undefined
        ? "a review cannot be ignored: approve, revise or edit it"
        : refused(decision);
    if (refusal !== undefined) {
      const path = "action" in response ? ["action"] : ["type"];
      ctx.addIssue({ code: "custom", path, message: refusal });
      return;
    }
    const issue = decision === undefined ? undefined : correctionRefusal(decision);
    if (issue === undefined) return;
    const path = issue.field.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part));
    ctx.addIssue({ code: "custom", path, message: issue.message });
  });
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
 * respond and edit are allowed as the review offers approve, revise and edit; ignore never.
 */
export function humanInterruptOf(
  metadata: InterruptMetadata,
  content: unknown,
  refused: (decision: ReviewDecision) => string | undefined,
): HumanInterrupt {
  const evaluation = metadata.evaluation ?? metadata.evaluationRef ?? null;
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
      allow_respond: refused({ action: "revise", feedback: "-" }) === undefined,
      allow_edit: refused({ action: "edit", content: "-" }) === undefined,
      allow_accept: refused({ action: "approve" }) === undefined,
    },
    description: metadata.description,
  };
}
