/** Asks the reviewer on stdin: approve, revise, edit, retry or quit (also at end of input). */

import type { ReviewAction, ReviewDecision } from "../../graph/model.js";
import type { StageDefinition } from "../../graph/stages.js";
import { type StructuredContentType, structuredContentOf } from "../../graph/structuredContent.js";
import type { PendingReview } from "../../orchestrator/pendingReview.js";
import type { CorrectionInput } from "../../scoring/corrections.js";
import type { TextOutput } from "../context.js";
import { markedCorrection, markQuestion } from "./corrections.js";
import { editContent } from "./editor.js";
import { readFieldForm, writeFieldForm } from "./fieldForm.js";
import { askLine, type LineReader } from "./input.js";

export interface DecisionPromptIo {
  lines: LineReader;
  out: TextOutput;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** stdin is a terminal, so EDITOR can take it over for an edit. */
  terminal: boolean;
  reviewer?: string;
}

export type PromptOutcome =
  | { kind: "decision"; decision: ReviewDecision }
  | { kind: "quit"; why: "quit" | "end-of-input" };

type Choice = ReviewAction | "mark" | "quit";

const LABELS: Readonly<Record<Choice, string>> = {
  approve: "[a]pprove",
  revise: "[r]evise",
  edit: "[e]dit",
  retry: "re[t]ry",
  mark: "[m]ark a score wrong",
  quit: "[q]uit",
};

/** Each choice is answered by its name or its bracketed letter; quit by exit too. */
const KEYS = new Map<string, Choice>([["exit", "quit"]]);
for (const [choice, label] of Object.entries(LABELS) as Array<[Choice, string]>) {
  KEYS.set(choice, choice).set(label.replace(/.*\[(\w)\].*/, "$1"), choice);
}

function withReviewer(io: DecisionPromptIo): { reviewer?: string } {
  return io.reviewer === undefined ? {} : { reviewer: io.reviewer };
}

function editedFor(
  io: DecisionPromptIo,
  type: StructuredContentType | undefined,
  text: string,
  current: unknown,
): string | undefined {
  if (type === undefined) return text;
  const read = readFieldForm(type, text, current);
  if (read.ok) return read.json;
  io.out.write(`The edit does not fit ${type.name}:\n`);
  for (const problem of read.problems) io.out.write(`  - ${problem}\n`);
  return undefined;
}

/** What the next edit starts from: the draft of an edit that did not fit, else the content. */
interface EditDraft {
  text: string | undefined;
}

/** Undefined when cancelled, unchanged or unfit (the next edit starts from it); null at end. */
async function editedContent(
  io: DecisionPromptIo,
  current: unknown,
  type: StructuredContentType | undefined,
  draft: EditDraft,
): Promise<string | null | undefined> {
  // A text stage's content as it is, data as indented JSON, structured content as its form.
  const original =
    type !== undefined
      ? writeFieldForm(type, current)
      : typeof current === "string" || current === undefined || current === null
        ? (current ?? "")
        : JSON.stringify(current, null, 2);
  const text = await editContent(io, draft.text ?? original, "md");
  if (text === null || text === undefined) {
    draft.text = undefined;
    return text;
  }
  const edited = editedFor(io, type, text, current);
  draft.text = edited === undefined ? text : undefined;
  if (edited === undefined) io.out.write("Choose edit again to fix it (your text is kept).\n");
  return edited;
}

/** Whether the review has scores a reviewer could mark wrong, with a decision that keeps them. */
function markable(review: PendingReview): boolean {
  const decides = review.actions.some((a) => a === "approve" || a === "revise" || a === "edit");
  return decides && (review.evaluation?.criteria.length ?? 0) > 0;
}

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

/** What a review waits for while the reviewer answers: the content, its form, the marks so far. */
interface Asked {
  content: unknown;
  type: StructuredContentType | undefined;
  draft: EditDraft;
  marks: { corrections?: CorrectionInput[] };
}

/** The decision of `action`, asking what it needs; undefined to go back, null at end of input. */
async function decisionOf(
  action: ReviewAction,
  io: DecisionPromptIo,
  asked: Asked,
): Promise<ReviewDecision | null | undefined> {
  const who = withReviewer(io);
  switch (action) {
    case "approve":
      return { action, ...who, ...asked.marks };
    case "retry":
      return { action, ...who };
    case "revise": {
      const feedback = await askLine(io, "Feedback for the writer (one line; empty to go back): ");
      if (feedback === undefined) return null;
      if (feedback.trim() === "") return undefined;
      return { action, feedback: feedback.trim(), ...who, ...asked.marks };
    }
    case "edit": {
      const edited = await editedContent(io, asked.content, asked.type, asked.draft);
      if (edited === null || edited === undefined) return edited;
      return { action, content: edited, ...who, ...asked.marks };
    }
  }
}

/** Asks until the reviewer decides or quits; an edit that does not fit is offered again. */
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
  const type = stage === undefined ? undefined : structuredContentOf(stage);
  const draft: EditDraft = { text: undefined };
  const corrections: CorrectionInput[] = [];
  const menu = `Decide: ${offered.map((c) => LABELS[c]).join(", ")} > `;
  for (;;) {
    const answer = await askLine(io, menu);
    if (answer === undefined) return { kind: "quit", why: "end-of-input" };
    const key = answer.trim().toLowerCase();
    if (key === "") continue;
    const choice = KEYS.get(key);
    if (choice === undefined || !offered.includes(choice)) {
      const known =
        choice === undefined
          ? `"${answer.trim()}" is not a choice`
          : `${choice} is not offered here`;
      io.out.write(`${known}: answer ${offered.join(", ")}.\n`);
      continue;
    }
    if (choice === "quit") return { kind: "quit", why: "quit" };
    if (choice === "mark") {
      if (await markStep(io, review, corrections)) continue;
      return { kind: "quit", why: "end-of-input" };
    }
    const marks = corrections.length === 0 ? {} : { corrections: [...corrections] };
    const decision = await decisionOf(choice, io, { content, type, draft, marks });
    if (decision === null) return { kind: "quit", why: "end-of-input" };
    if (decision !== undefined) return { kind: "decision", decision };
  }
}
