/**
 * A reviewer's answer as the review reads it: the decision, or the refusal with which the review
 * asks again. Nothing here throws, so on a LangGraph server the thread stays `interrupted`.
 */
import type { HumanInterrupt } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import type { CorrectionIssue } from "../scoring/corrections.js";
import type { EvaluationResult } from "../scoring/result.js";
import { inboxDescription } from "./inboxDescription.js";
import {
  type InterruptMetadata,
  type ReviewDecision,
  ReviewDecisionSchema,
  type ReviewRefusal,
} from "./model.js";
import { EditContentSchema, FeedbackSchema, quotedId, readableIssues } from "./reviewInput.js";

const AnswerTypeSchema = z.enum(["accept", "ignore", "response", "edit"]);
type AnswerType = z.infer<typeof AnswerTypeSchema>;

/** What the resume guard stores in place of an answer no review takes: never the value. */
export const RefusedAnswerSchema = z.strictObject({
  refusedAnswer: z.strictObject({
    field: z.string().max(300),
    problem: z.string().max(1_000),
    /** The Agent Inbox response's type, when it named one: what its `args` were meant to be. */
    type: AnswerTypeSchema.optional(),
  }),
});

type Refused = z.infer<typeof RefusedAnswerSchema>["refusedAnswer"];

export function refusedAnswer(field: string, problem: string, type?: AnswerType) {
  const refused = { field: field.slice(0, 300), problem: problem.slice(0, 1_000) };
  return { refusedAnswer: type === undefined ? refused : { ...refused, type } };
}

/** The answer itself, or the one item of Agent Inbox's list of one. */
function soleAnswer(answer: unknown): unknown {
  return Array.isArray(answer) && answer.length === 1 ? answer[0] : answer;
}

/** The `type` a HumanResponse (alone or in a list of one) gives, if it is not a ReviewDecision. */
function givenType(answer: unknown): { type: unknown } | undefined {
  const one = soleAnswer(answer);
  if (typeof one !== "object" || one === null || "action" in one || !("type" in one)) return;
  return { type: one.type };
}

/** The answer's shape read once, for the resume guard and the review: the response, or what is wrong. */
export function responseOf(answer: unknown): { response: ReviewResponse } | Refused {
  const stood = RefusedAnswerSchema.safeParse(answer);
  if (stood.success) return stood.data.refusedAnswer;
  // null or undefined, alone or as Agent Inbox's list of one: nothing to read.
  if (soleAnswer(answer) == null)
    return { field: "(answer)", problem: "is empty: it holds no decision" };
  const parsed = ReviewResponseSchema.safeParse(answer);
  if (parsed.success) return { response: parsed.data };
  const given = givenType(answer);
  const known = AnswerTypeSchema.safeParse(given?.type);
  if (given !== undefined && !known.success) {
    const named = typeof given.type === "string" ? quotedId(given.type) : "not text";
    return { field: "type", problem: `is ${named}: an answer's type is accept, response or edit` };
  }
  const [issue] = readableIssues(parsed.error.issues);
  const path = issue?.path ?? [];
  const type = known.data;
  return {
    field: path.length === 0 ? "(answer)" : path.map(String).join("."),
    problem: issue?.message ?? "is not an answer",
    ...(type === undefined ? {} : { type }),
  };
}

/** What only the review knows: the actions it offers, the stage's shape, the evaluation seen. */
interface AnswerChecks {
  action(decision: ReviewDecision): string | undefined;
  content(content: string): string | undefined;
  corrections(decision: ReviewDecision): CorrectionIssue | undefined;
  /** The answers the review takes, in words: "approve, revise or edit (Agent Inbox: accept, …)". */
  offered: string;
  editHint: string;
  /** The request the review shows now, which Agent Inbox sends back with an accept or an edit. */
  shown: { action: string; args: Record<string, unknown> };
}

/** Why an Agent Inbox answer is for a review that no longer waits (it sends back another request). */
function staleAnswer(response: ReviewResponse, checks: AnswerChecks): ReviewRefusal | undefined {
  if ("action" in response || (response.type !== "accept" && response.type !== "edit")) return;
  const request = response.args;
  if (request === null || request === undefined) return;
  const fix = "Open the review again and answer what it shows now.";
  const { shown } = checks;
  if (request.action !== shown.action) {
    const waiting = `not the review waiting now (${quotedId(shown.action)})`;
    const problem = `it answers ${quotedId(request.action)}, ${waiting}: nothing was applied`;
    return { field: "args.action", problem, fix };
  }
  const content = request.args.content;
  if (response.type === "accept" && typeof content === "string" && content !== shown.args.content) {
    const problem = "it accepts the content as it was shown before it changed: nothing was applied";
    return { field: "args.args.content", problem, fix };
  }
  return undefined;
}

function fixFor(field: string, checks: AnswerChecks, type?: AnswerType): string {
  const last = field.split(".").at(-1) ?? field;
  if (/content$/.test(field) || (type === "edit" && field.startsWith("args"))) {
    return checks.editHint;
  }
  if ((field === "args" && (type ?? "response") === "response") || last === "feedback") {
    return "Write what the writer should change, in visible text (at most 20,000 characters).";
  }
  if (field === "context") {
    return "Answer again with a context the graph takes (model, passingThreshold, maxRevisions, mode), or none.";
  }
  if (last === "reviewer") return "Give the reviewer's name on one line (at most 100 characters).";
  if (last === "comment") return "Write the comment in visible text, or leave it out.";
  if (field.startsWith("corrections") || /\.corrections/.test(field)) {
    return "Correct criteria of this evaluation on their own scale (score or level), with a note, or leave corrections out.";
  }
  return `Answer with ${checks.offered}.`;
}

function refusal(
  field: string,
  problem: string,
  checks: AnswerChecks,
  type?: AnswerType,
): { refusal: ReviewRefusal } {
  return { refusal: { field, problem, fix: fixFor(field, checks, type) } };
}

/**
 * The answer read, in order: the guard's stand-in, its shape, `ignore` (a review cannot be
 * skipped), an Agent Inbox answer for a review no longer waiting, the action offered, an edit's
 * content, the corrections.
 */
export function readReviewAnswer(
  answer: unknown,
  checks: AnswerChecks,
): { decision: ReviewDecision } | { refusal: ReviewRefusal } {
  const read = responseOf(answer);
  if ("problem" in read) return refusal(read.field, read.problem, checks, read.type);
  const inbox = !("action" in read.response);
  const decision = decisionOf(read.response);
  if (decision === undefined) {
    return refusal("type", "a review cannot be ignored: it waits for a decision", checks);
  }
  const stale = staleAnswer(read.response, checks);
  if (stale !== undefined) return { refusal: stale };
  const refused = checks.action(decision);
  if (refused !== undefined) return refusal(inbox ? "type" : "action", refused, checks);
  if (decision.action === "edit") {
    const unfit = checks.content(decision.content);
    if (unfit !== undefined) return refusal(inbox ? "args.args.content" : "content", unfit, checks);
  }
  const issue = checks.corrections(decision);
  if (issue !== undefined) return refusal(issue.field, issue.message, checks);
  return { decision };
}

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
