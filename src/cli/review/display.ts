/** What the review commands print: a pending review, the paused threads, and how a run ended. */

import { outcomeText } from "../../graph/inboxDescription.js";
import { kindOf } from "../../graph/reviewDecisions.js";
import type { StageDefinition } from "../../graph/stages.js";
import type { OverallProposalStateType } from "../../graph/state.js";
import { parseStatePath, readStatePath } from "../../graph/statePath.js";
import { stepsLeft } from "../../graph/threadProgress.js";
import type { PendingReview } from "../../orchestrator/pendingReview.js";
import { threadErrors } from "../../proposal/document.js";
import { statusName } from "../../proposal/statusWords.js";
import type { EvaluationResult } from "../../scoring/result.js";
import { shownScore } from "../../scoring/shownScore.js";
import { oneLine, truncate } from "../../shortText.js";
import type { PendingRow } from "../../store/types.js";
import { timeAgo, timeStamp } from "../../timeText.js";
import { terminalSafe } from "../../untrusted/terminalText.js";
import { criterionRow, padTo, panelFacts, resultLists } from "../report/summary.js";
import { contentLines, markdownLines, wrapLine } from "./contentText.js";
import type { FailedThread, WorkLeftThread } from "./workLeft.js";

const GAP = "  ";

/** Rows under a header, each column as wide as its widest cell; the last column is not padded. */
export function renderColumns(header: readonly string[], rows: readonly string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(Array.from(title).length, ...rows.map((row) => Array.from(row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => padTo(cell, widths[column] ?? 0))
      .join(GAP)
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
}

function scoreTable(evaluation: EvaluationResult, width: number): string[] {
  const rows = evaluation.criteria.map((criterion) => {
    const row = criterionRow(criterion);
    return [truncate(row.criterion, Math.max(24, width - 32)), row.score, row.threshold, row.met];
  });
  return renderColumns(["criterion", "score", "threshold", "met"], rows);
}

export interface ReviewViewOptions {
  /** Line width for the table and the content (default 100). */
  width?: number;
}

export function renderReview(
  review: PendingReview,
  content: unknown,
  options: ReviewViewOptions = {},
): string {
  const width = Math.max(60, options.width ?? 100);
  const out: string[] = [];
  const heading = `Review: ${review.title} [${review.contentId}]`;
  out.push(heading, "=".repeat(Math.min(width, Array.from(heading).length)));
  const facts = [`type ${review.type}`];
  if (review.round !== undefined) {
    facts.push(`round ${review.round.number} of at most ${review.round.max}`);
  }
  if (review.revisions !== undefined) {
    facts.push(`revisions ${review.revisions.count} of ${review.revisions.max}`);
  }
  out.push(facts.join(" · "));
  if (review.description.trim() !== "") out.push(oneLine(review.description));
  if (review.error !== undefined) out.push(`error: ${oneLine(review.error)}`);
  const answered = review.round?.feedback;
  if (answered !== undefined) {
    out.push("", `This version answers the feedback of round ${(review.round?.number ?? 2) - 1}:`);
    out.push(...markdownLines(answered, width, "  > "));
  }

  const evaluation = review.evaluation;
  if (evaluation !== null) {
    out.push("", ...scoreTable(evaluation, width), "", outcomeText(evaluation));
    // A panel's judges and agreement (α, gaps), and how many quotes were found.
    for (const fact of panelFacts(evaluation)) out.push(`${fact.label}: ${fact.value}`);
    for (const list of resultLists(evaluation)) {
      out.push("", list.title);
      // Whole items, wrapped: the reviewer reads all of them.
      for (const item of list.items)
        out.push(...wrapLine(terminalSafe(oneLine(item)), width, "  - ", "    "));
    }
  } else {
    out.push("", "No evaluation: nothing was judged for this review.");
  }
  // The whole content: the reviewer reads everything before deciding.
  const shape = { contentType: review.contentType, contentKind: kindOf(content) };
  out.push("", "Content", ...contentLines(content, shape, width));
  return `${out.join("\n")}\n`;
}

function stageScore(values: OverallProposalStateType, stage: StageDefinition): string[] {
  const result = readStatePath(values, parseStatePath(stage.resultField));
  if (typeof result !== "object" || result === null || !("overallScore" in result)) {
    return ["—", "—"];
  }
  const evaluation = result as EvaluationResult;
  // An evaluation that judged no criterion has a score that says nothing.
  if (!(evaluation.criteria ?? []).some((c) => c.evaluated)) return ["—", "not evaluated"];
  return [shownScore(evaluation.overallScore), evaluation.verdict];
}

function stageStatusText(values: OverallProposalStateType, stage: StageDefinition): string {
  const status = readStatePath(values, parseStatePath(stage.statusField));
  return typeof status === "string" ? status : "not_started";
}

/** Each stage's status and score, and the decisions made. */
export function renderRunSummary(
  values: OverallProposalStateType,
  stages: readonly StageDefinition[],
): string {
  const rows = stages.map((stage) => {
    const status = stageStatusText(values, stage);
    const [score = "—", verdict = "—"] = stageScore(values, stage);
    // An edit replaces the content after it was judged: the score is the replaced content's.
    const note = status === "edited" && score !== "—" ? " (before the edit)" : "";
    return [stage.id, status, score, `${verdict}${note}`];
  });
  const out = renderColumns(["stage", "status", "score", "verdict"], rows);
  const decisions = values.reviewHistory ?? [];
  out.push("", `${decisions.length} review decision${decisions.length === 1 ? "" : "s"}`);
  // Errors of stages that have moved on since (retried, edited, approved) are not current.
  const { current, superseded } = threadErrors(values, stages);
  if (current.length > 0) {
    out.push("", "Errors");
    for (const error of current) out.push(`  - ${oneLine(error.message)}`);
  }
  if (superseded.length > 0) {
    const count =
      superseded.length === 1 ? "1 earlier error" : `${superseded.length} earlier errors`;
    out.push(
      "",
      `${count} superseded since (the stages moved on; the proposal's appendix lists them)`,
    );
  }
  return `${out.join("\n")}\n`;
}

/** `2025-03-01 14:05:09 UTC (12 minutes ago)` for a pause time (in UTC unless a zone is named). */
export function waitingSince(pausedAt: string | undefined, now: Date, timeZone?: string): string {
  if (pausedAt === undefined) return "—";
  const at = new Date(pausedAt);
  if (Number.isNaN(at.getTime())) return pausedAt;
  return `${timeStamp(at, { seconds: true, timeZone })} (${timeAgo(at, now)})`;
}

/** The `evalgate reviews` table, from rows of the pending-review index. */
export function renderIndexList(rows: readonly PendingRow[], now = new Date()): string {
  const table = rows.map((row) => [
    row.threadId,
    row.stage,
    row.type,
    row.overallScore === null ? "—" : `${shownScore(row.overallScore)} ${row.verdict ?? ""}`.trim(),
    waitingSince(row.createdAt, now),
  ]);
  const lines = renderColumns(["thread", "stage", "type", "score", "waiting since"], table);
  return `${lines.join("\n")}\n`;
}

/** The failed threads: when, why, and how to run each again. */
export function renderFailedList(
  threads: readonly FailedThread[],
  retryCommand: (threadId: string) => string,
): string {
  const rows = threads.map((thread) => [
    thread.threadId,
    timeStamp(new Date(thread.failedAt)),
    truncate(oneLine(thread.error), 80),
    retryCommand(thread.threadId),
  ]);
  const lines = renderColumns(["thread", "failed", "why", "run it again with"], rows);
  return `${lines.join("\n")}\n`;
}

/** In the words of the thread statuses, but for a thread another process holds. */
const WORK_LEFT_STATES: Readonly<Record<WorkLeftThread["state"], string>> = {
  running: "running in another process",
  queued: statusName("queued"),
  stopped: statusName("stopped"),
};

/** The threads with work left and no review: where each stopped, and how to go on. */
export function renderWorkLeftList(
  threads: readonly WorkLeftThread[],
  runCommand: (threadId: string) => string,
): string {
  const rows = threads.map((thread) => [
    thread.threadId,
    WORK_LEFT_STATES[thread.state],
    thread.nodes.length === 0 ? "(before its first checkpoint)" : stepsLeft(thread.nodes),
    thread.state === "running" ? "—" : runCommand(thread.threadId),
  ]);
  const lines = renderColumns(["thread", "state", "work left", "go on with"], rows);
  return `${lines.join("\n")}\n`;
}
