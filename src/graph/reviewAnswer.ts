/**
 * A reviewer's answer as the review reads it: a ReviewDecision or an Agent Inbox HumanResponse the
 * review takes, or the refusal — what is wrong, in which field, how to fix it — with which the
 * review asks again (reviewNode.ts). Nothing here throws: a refused answer never fails a run, so on
 * a LangGraph server the thread stays `interrupted` and Agent Inbox keeps it.
 */
import { z } from "zod";
import type { CorrectionIssue } from "../scoring/corrections.js";
import { decisionOf, ReviewResponseSchema } from "./agentInbox.js";
import type { ReviewDecision, ReviewRefusal } from "./model.js";
import { readableIssues } from "./reviewInput.js";

/**
 * What the resume guard (resumeGuard.ts) puts in place of an answer no review takes and nothing
 * should store — 10 MB of feedback, content with NUL bytes, a name with a line break: the field
 * and the problem, never the value. The review reads it as a refusal.
 */
export const RefusedAnswerSchema = z.strictObject({
  refusedAnswer: z.strictObject({
    field: z.string().max(300),
    problem: z.string().max(1_000),
  }),
});
export type RefusedAnswer = z.infer<typeof RefusedAnswerSchema>;

/** The guard's stand-in for a refused answer. */
export function refusedAnswer(field: string, problem: string): RefusedAnswer {
  return { refusedAnswer: { field: field.slice(0, 300), problem: problem.slice(0, 1_000) } };
}

/** What only the review knows: the actions it offers, the stage's shape, the evaluation seen. */
export interface AnswerChecks {
  /** Why the review refuses the action, or undefined. */
  action(decision: ReviewDecision): string | undefined;
  /** Why the edited content does not fit the stage, or undefined. */
  content(content: string): string | undefined;
  /** Why the corrections do not fit the evaluation, or undefined. */
  corrections(decision: ReviewDecision): CorrectionIssue | undefined;
  /** The answers the review takes, in words: "approve, revise or edit (Agent Inbox: accept, …)". */
  offered: string;
  /** What an edit of this stage takes, in words. */
  editHint: string;
}

/** What to send instead, for a refusal at `field`. */
function fixFor(field: string, checks: AnswerChecks): string {
  const last = field.split(".").at(-1) ?? field;
  if (/content$/.test(field)) return checks.editHint;
  if (field === "args" || last === "feedback") {
    return "Write what the writer should change, in visible text (at most 20,000 characters).";
  }
  if (last === "reviewer") return "Give the reviewer's name on one line (at most 100 characters).";
  if (last === "comment") return "Write the comment in visible text, or leave it out.";
  if (field.startsWith("corrections") || /\.corrections/.test(field)) {
    return "Correct criteria of this evaluation on their own scale (score or level), with a note, or leave corrections out.";
  }
  return `Answer with ${checks.offered}.`;
}

function refusal(field: string, problem: string, checks: AnswerChecks): { refusal: ReviewRefusal } {
  return { refusal: { field, problem, fix: fixFor(field, checks) } };
}

/** A path into the answer as a field name: `args.args.content`, `(answer)` for the whole. */
function fieldOf(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? "(answer)" : path.map(String).join(".");
}

/**
 * The answer read: the decision it stands for when the review takes it, else the refusal. In
 * order: the guard's stand-in, the answer's shape (ReviewResponseSchema), `ignore` (a review
 * cannot be skipped), the action offered, an edit's content against the stage, the corrections
 * against the evaluation the reviewer saw.
 */
export function readReviewAnswer(
  answer: unknown,
  checks: AnswerChecks,
): { decision: ReviewDecision } | { refusal: ReviewRefusal } {
  const stood = RefusedAnswerSchema.safeParse(answer);
  if (stood.success) {
    const { field, problem } = stood.data.refusedAnswer;
    return refusal(field, problem, checks);
  }
  const parsed = ReviewResponseSchema.safeParse(answer);
  if (!parsed.success) {
    const [issue] = readableIssues(parsed.error.issues);
    return refusal(fieldOf(issue?.path ?? []), issue?.message ?? "is not an answer", checks);
  }
  const response = parsed.data;
  const inbox = !("action" in response);
  const decision = decisionOf(response);
  if (decision === undefined) {
    return refusal("type", "a review cannot be ignored: it waits for a decision", checks);
  }
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
