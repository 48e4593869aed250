/**
 * The review commands' arguments, checked by the review boundary's schemas before anything is
 * opened.
 */

import type { z } from "zod";
import { type ReviewDecision, ReviewDecisionSchema } from "../../graph/model.js";
import {
  quotedId,
  ReviewerNameSchema,
  readableIssues,
  ThreadIdSchema,
} from "../../graph/reviewInput.js";
import { CliError } from "../errors.js";

function checkedArg(schema: z.ZodType<string>, value: string, label: string): string {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new CliError(
    `${label} ${quotedId(value)} ${parsed.error.issues[0]?.message ?? "is invalid"}`,
  );
}

export function checkedThreadArg(threadId: string, what = "the thread id"): string {
  return checkedArg(ThreadIdSchema, threadId, what);
}

/** `--reviewer <name>`: one line of printable text (trimmed); undefined when not given. */
export function checkedReviewerArg(name: string | undefined): string | undefined {
  return name === undefined ? undefined : checkedArg(ReviewerNameSchema, name, "--reviewer");
}

const OPTION_OF: Readonly<Record<string, string>> = {
  reviewer: "--reviewer",
  comment: "--comment",
  feedback: "--feedback",
  content: "--content-file",
  corrections: "--correct",
  criterionId: "--correct",
  score: "--correct",
  level: "--correct",
  note: "--note",
};

/** The fields of a decision as the options give them, before the review boundary checks them. */
type DecisionFields = Record<string, unknown> & {
  corrections?: ReadonlyArray<{ criterionId: string }>;
};

/** The decision as the review boundary takes it; CliError naming the option at fault. */
export function checkedDecision(decision: DecisionFields): ReviewDecision {
  const parsed = ReviewDecisionSchema.safeParse(decision);
  if (parsed.success) return parsed.data;
  const [issue] = readableIssues(parsed.error.issues);
  const path = issue?.path ?? [];
  const field = [...path].reverse().find((part): part is string => typeof part === "string");
  const option = OPTION_OF[field ?? ""] ?? "the decision";
  const index = path[1];
  const correction =
    path[0] === "corrections" && typeof index === "number"
      ? decision.corrections?.[index]
      : undefined;
  const which = correction === undefined ? "" : ` ${quotedId(correction.criterionId)}`;
  throw new CliError(`${option}${which}: ${issue?.message ?? "is invalid"}`);
}
