/** Progress of a proposal run between two reviews, on stderr: the stage being written or judged. */

import type { StageProgress } from "../orchestrator/stageProgress.js";
import { shownScore } from "../scoring/shownScore.js";
import type { TextOutput } from "./context.js";
import { createLiveLine } from "./liveLine.js";
import { progressBar } from "./progress.js";

export interface StageProgressReporter {
  onProgress(threadId: string, progress: StageProgress): void;
  /** Clears a line still drawn, so that what is printed next starts clean. */
  finish(): void;
}

function criterionLine(progress: Extract<StageProgress, { phase: "judging" }>): string {
  const score =
    progress.score === undefined
      ? ""
      : progress.score === null
        ? " → not evaluated"
        : ` → ${shownScore(progress.score)}`;
  return `[${progress.done}/${progress.total}] ${progress.title}: ${progress.criterionId ?? ""}${score}`;
}

function judgedLine(progress: Extract<StageProgress, { phase: "judged" }>): string {
  const outcome = progress.passed ? "passed" : "not passed";
  return `${progress.title} judged: ${shownScore(progress.overallScore)} (${outcome})`;
}

function plainLine(progress: StageProgress): string {
  switch (progress.phase) {
    case "writing":
      return `writing ${progress.title}…`;
    case "judging":
      return progress.done === 0
        ? `judging ${progress.title}: ${progress.total} criteria`
        : criterionLine(progress);
    case "judged":
      return judgedLine(progress);
  }
}

/** The line redrawn in place on a terminal while a stage is written or judged. */
function liveLine(progress: Exclude<StageProgress, { phase: "judged" }>): string {
  if (progress.phase === "writing") return `writing ${progress.title}…`;
  const last = progress.criterionId === undefined ? "" : `  ${progress.criterionId}`;
  return `judging ${progress.title} ${progressBar(progress.done, progress.total)} ${progress.done}/${progress.total}${last}`;
}

export function createStageProgressReporter(stream: TextOutput): StageProgressReporter {
  const live = createLiveLine(stream);
  return {
    onProgress(_threadId, progress) {
      if (!live.tty) live.print(plainLine(progress));
      else if (progress.phase === "judged") live.print(judgedLine(progress));
      else live.draw(liveLine(progress));
    },
    finish: live.clear,
  };
}
