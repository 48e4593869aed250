/**
 * Progress of an evaluation on stderr (stdout is the result's): a bar on a terminal, else one line
 * per criterion.
 */

import type { Catalog } from "../criteria/model.js";
import type { EvaluationProgress } from "../engine/options.js";
import { meetsThreshold } from "../scoring/consistency.js";
import { thresholdOf } from "../scoring/criterionResult.js";
import type { CriterionOutcome } from "../scoring/result.js";
import { shownScore, shownThreshold } from "../scoring/shownScore.js";
import { oneLine } from "../shortText.js";
import type { TextOutput } from "./context.js";
import { createLiveLine } from "./liveLine.js";
import { nativeText } from "./report/text.js";

const BAR_WIDTH = 24;

export interface ProgressReporter {
  onProgress(event: EvaluationProgress): void;
  /** Clears a bar still drawn (an evaluation that ended in an error), so messages start clean. */
  finish(): void;
}

/** `[#########---------------]`: how many of `total` are done. */
export function progressBar(done: number, total: number, width = BAR_WIDTH): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}]`;
}

function outcomeText(outcome: CriterionOutcome, threshold: number): string {
  if (!outcome.evaluated || outcome.score === null) {
    return `not evaluated: ${oneLine(outcome.judgeError ?? "no answer")}`;
  }
  const met = meetsThreshold(outcome.score, threshold) ? "met" : "not met";
  return `${nativeText(outcome.native)} → ${shownScore(outcome.score, "decimal", threshold)} (threshold ${shownThreshold(threshold)}, ${met})`;
}

export function createProgressReporter(
  stream: TextOutput,
  catalog: Pick<Catalog, "criteria" | "passingThreshold">,
): ProgressReporter {
  const byId = new Map(catalog.criteria.map((c) => [c.id, c]));
  const live = createLiveLine(stream);
  const running = new Set<string>();
  let total = catalog.criteria.length;
  let done = 0;

  const label = (id: string) => {
    const title = byId.get(id)?.title;
    return title === undefined || title === id ? id : `${id} ${title}`;
  };
  const drawBar = () => {
    const now = running.size === 0 ? "" : `  judging ${[...running].join(", ")}`;
    live.draw(`${progressBar(done, total)} ${done}/${total}${now}`);
  };

  return {
    onProgress(event) {
      switch (event.type) {
        case "start":
          total = event.total;
          live.print(
            `evaluating ${total} criteria (${event.llmCriteria} by the judge model, ` +
              `${total - event.llmCriteria} by deterministic checks)`,
          );
          drawBar();
          return;
        case "criterion_start":
          running.add(event.criterionId);
          drawBar();
          return;
        case "criterion_done": {
          running.delete(event.criterionId);
          done += 1;
          const criterion = byId.get(event.criterionId);
          const threshold =
            criterion === undefined ? catalog.passingThreshold : thresholdOf(criterion, catalog);
          live.print(
            `[${done}/${event.total}] ${label(event.criterionId)}: ${outcomeText(event.outcome, threshold)}`,
          );
          drawBar();
          return;
        }
        case "done":
          live.print(
            `done: ${event.passed ? "passed" : "not passed"} (overall ${shownScore(event.overallScore)})`,
          );
          return;
      }
    },
    finish: live.clear,
  };
}
