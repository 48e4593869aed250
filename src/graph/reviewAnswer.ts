/**
 * A reviewer's answer as the review reads it: the decision, or the refusal with which the review
 * asks again. Nothing here throws, so on a LangGraph server the thread stays `interrupted`.
 */
import { z } from "zod";
import type { CorrectionIssue } from "../scoring/corrections.js";
import { decisionOf, type ReviewResponse, ReviewResponseSchema } from "./agentInbox.js";
import type { ReviewDecision, ReviewRefusal } from "./model.js";
import { quotedId, readableIssues } from "./reviewInput.js";

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

/** The `type` a HumanResponse (alone or in a list of one) gives, if it is not a ReviewDecision. */
function givenType(answer: unknown): { type: unknown } | undefined {
  const one = Array.isArray(answer) && answer.length === 1 ? answer[0] : answer;
  if (typeof one !== "object" || one === null || "action" in one || !("type" in one)) return;
  return { type: one.type };
}

/** The answer's shape read once, for the resume guard and the review: the response, or what is wrong. */
export function responseOf(answer: unknown): { response: ReviewResponse } | Refused {
  const stood = RefusedAnswerSchema.safeParse(answer);
  if (stood.success) return stood.data.refusedAnswer;
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
