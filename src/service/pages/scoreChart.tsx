/** One bar per criterion (0–100 %) with a mark at its threshold: plain SVG, no script, no style. */

import type { CriterionResult, EvaluationResult } from "../../scoring/result.js";
import { shownScore, shownThreshold } from "../../scoring/shownScore.js";
import { truncate } from "../../shortText.js";

const LABEL_WIDTH = 260;
const BAR_WIDTH = 420;
const ROW_HEIGHT = 26;
const BAR_HEIGHT = 14;
const VALUE_WIDTH = 70;

function barClass(criterion: CriterionResult): string {
  if (!criterion.evaluated || criterion.met === null) return "bar-none";
  return criterion.met ? "bar-met" : "bar-unmet";
}

function valueText(criterion: CriterionResult): string {
  if (!criterion.evaluated || criterion.score === null) return "not judged";
  const { score, threshold } = criterion;
  return `${shownScore(score, "percent", threshold)} / ${shownThreshold(threshold, "percent")}`;
}

function Row(props: { criterion: CriterionResult; index: number }) {
  const { criterion, index } = props;
  const y = index * ROW_HEIGHT;
  const barY = y + (ROW_HEIGHT - BAR_HEIGHT) / 2;
  const width = criterion.score === null ? 0 : Math.floor(criterion.score * BAR_WIDTH);
  const thresholdX = LABEL_WIDTH + Math.round(criterion.threshold * BAR_WIDTH);
  return (
    <g>
      <title>{`${criterion.title}: ${valueText(criterion)} (score / threshold)`}</title>
      <text x="0" y={y + ROW_HEIGHT / 2 + 4}>
        {truncate(criterion.title, 38)}
      </text>
      <rect class="track" x={LABEL_WIDTH} y={barY} width={BAR_WIDTH} height={BAR_HEIGHT} />
      <rect
        class={barClass(criterion)}
        x={LABEL_WIDTH}
        y={barY}
        width={width}
        height={BAR_HEIGHT}
      />
      <line class="threshold" x1={thresholdX} x2={thresholdX} y1={y + 2} y2={y + ROW_HEIGHT - 2} />
      <text x={LABEL_WIDTH + BAR_WIDTH + 8} y={y + ROW_HEIGHT / 2 + 4}>
        {valueText(criterion)}
      </text>
    </g>
  );
}

export function ScoreChart(props: { evaluation: EvaluationResult }) {
  const criteria = props.evaluation.criteria;
  const width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH + 40;
  const height = Math.max(1, criteria.length) * ROW_HEIGHT;
  return (
    <svg
      class="chart"
      role="img"
      aria-label="Scores of each criterion against its passing threshold"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
    >
      {criteria.map((criterion, index) => (
        <Row criterion={criterion} index={index} />
      ))}
    </svg>
  );
}

/** A 0–1 score as the pages and the HTML report show it: a whole percent cut down, "—" for none. */
export function formatScore(score: number | null, threshold?: number): string {
  return score === null ? "—" : shownScore(score, "percent", threshold);
}
