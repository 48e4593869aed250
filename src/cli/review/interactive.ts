/**
 * Asks the reviewer for a decision on stdin: approve / revise (then the feedback) / edit (in the
 * reviewer's editor, or in a file they edit and hand back with Enter: editor.ts) / retry when the review
 * offers it / quit. Each answer is one line; an answer that does not fit is explained and asked
 * again. The end of the input counts as quitting.
 */
import type { ReviewAction, ReviewDecision } from "../../graph/model.js";
import type { StageDefinition } from "../../graph/stages.js";
import type { PendingReview } from "../../orchestrator/pendingReview.js";
import type { CorrectionInput } from "../../scoring/corrections.js";
import type { TextOutput } from "../context.js";
import { markedCorrection, markQuestion } from "./corrections.js";
import { contentText } from "./display.js";
import { editContent } from "./editor.js";
import { askLine, type LineReader } from "./input.js";

export interface DecisionPromptIo {
  lines: LineReader;
  out: TextOutput;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** stdin is a terminal, so EDITOR can take it over for an edit. */
  terminal: boolean;
  /** Recorded with every decision. */
  reviewer?: string;
}

export type PromptOutcome =
  | { kind: "decision"; decision: ReviewDecision }
  | { kind: "quit"; why: "quit" | "end-of-input" };

type Choice = ReviewAction | "mark" | "quit";

const KEYS: Readonly<Record<string, Choice>> = {
  a: "approve",
  approve: "approve",
  r: "revise",
  revise: "revise",
  e: "edit",
  edit: "edit",
  t: "retry",
  retry: "retry",
  m: "mark",
  mark: "mark",
  q: "quit",
  quit: "quit",
  exit: "quit",
};

const LABELS: Readonly<Record<Choice, string>> = {
  approve: "[a]pprove",
  revise: "[r]evise",
  edit: "[e]dit",
  retry: "re[t]ry",
  mark: "[m]ark a score wrong",
  quit: "[q]uit",
};

function withReviewer(io: DecisionPromptIo): { reviewer?: string } {
  return io.reviewer === undefined ? {} : { reviewer: io.reviewer };
}

/** Text stages are edited as Markdown, data stages (research, pairs) as JSON. */
function editExtension(stage: StageDefinition | undefined, content: unknown): string {
  const kind = stage?.contentKind ?? (typeof content === "string" ? "text" : "object");
  return kind === "text" ? "md" : "json";
}

/** Whether the review has scores a reviewer could mark wrong, with a decision that keeps them. */
function markable(review: PendingReview): boolean {
  const decides = review.actions.some((a) => a === "approve" || a === "revise" || a === "edit");
  return decides && (review.evaluation?.criteria.length ?? 0) > 0;
}

/**
 * The `mark` step: one criterion's right value (and note) added to `corrections`, replacing an
 * earlier mark of it; false at the end of the input.
 */
async function markStep(
  io: DecisionPromptIo,
  review: PendingReview,
  corrections: CorrectionInput[],
): Promise<boolean> {
  for (;;) {
    const answer = await askLine(io, markQuestion(review));
    if (answer === undefined) return false;
    if (answer.trim() === "") return true;
    const marked = markedCorrection(review, answer, corrections);
    if ("message" in marked) {
      io.out.write(`${marked.message}\n`);
      continue;
    }
    const { correction } = marked;
    const at = corrections.findIndex((c) => c.criterionId === correction.criterionId);
    if (at >= 0) corrections.splice(at, 1);
    corrections.push(correction);
    const value = correction.level ?? correction.score;
    io.out.write(`Marked ${correction.criterionId}: ${value} (sent with your decision).\n`);
    return true;
  }
}

/**
 * Asks until the reviewer decides or quits. `content` is the stage's current content (the text
 * an edit starts from); `stage` says its shape (data stages are edited as JSON).
 */
export async function askDecision(
  review: PendingReview,
  content: unknown,
  stage: StageDefinition | undefined,
  io: DecisionPromptIo,
): Promise<PromptOutcome> {
  const offered: Choice[] = [
    ...review.actions,
    ...(markable(review) ? ["mark" as const] : []),
    "quit",
  ];
  const corrections: CorrectionInput[] = [];
  const marks = () => (corrections.length === 0 ? {} : { corrections: [...corrections] });
  const menu = `Decide: ${offered.map((c) => LABELS[c]).join(", ")} > `;
  for (;;) {
    const answer = await askLine(io, menu);
    if (answer === undefined) return { kind: "quit", why: "end-of-input" };
    const key = answer.trim().toLowerCase();
    if (key === "") continue;
    const choice = KEYS[key];
    if (choice === undefined || !offered.includes(choice)) {
      const known =
        choice === undefined
          ? `"${answer.trim()}" is not a choice`
          : `${choice} is not offered here`;
      io.out.write(`${known}: answer ${offered.join(", ")}.\n`);
      continue;
    }
    switch (choice) {
      case "quit":
        return { kind: "quit", why: "quit" };
      case "mark":
        if (!(await markStep(io, review, corrections)))
          return { kind: "quit", why: "end-of-input" };
        continue;
      case "approve":
        return { kind: "decision", decision: { action: choice, ...withReviewer(io), ...marks() } };
      case "retry":
        return { kind: "decision", decision: { action: choice, ...withReviewer(io) } };
      case "revise": {
        const feedback = await askLine(
          io,
          "Feedback for the writer (one line; empty to go back): ",
        );
        if (feedback === undefined) return { kind: "quit", why: "end-of-input" };
        if (feedback.trim() === "") continue;
        return {
          kind: "decision",
          decision: {
            action: "revise",
            feedback: feedback.trim(),
            ...withReviewer(io),
            ...marks(),
          },
        };
      }
      case "edit": {
        const before = contentText(content) ?? "";
        const edited = await editContent(io, before, editExtension(stage, content));
        if (edited === null) return { kind: "quit", why: "end-of-input" };
        if (edited === undefined) continue;
        return {
          kind: "decision",
          decision: { action: "edit", content: edited, ...withReviewer(io), ...marks() },
        };
      }
    }
  }
}
