/**
 * The calibration charts as inline SVG (no script, no asset); label text escaped by construction.
 */

import type { Child } from "hono/jsx";
import type { CriterionCalibration, ThresholdPoint } from "../../../calibration/reportModel.js";
import {
  criterionName,
  formatFigure,
  formatPercent,
  formatThreshold,
  NOT_ENOUGH,
} from "../../../service/pages/calibrationText.js";
import { truncate } from "../../../shortText.js";

const round = (value: number) => Math.round(value * 10) / 10;

const KAPPA_LABEL = 230;
const KAPPA_BAR = 300;
const KAPPA_ROW = 24;

/** κ of each criterion from −1 to 1, zero in the middle; "not enough labels" where it has none. */
export function kappaBars(criteria: readonly CriterionCalibration[]) {
  const width = KAPPA_LABEL + KAPPA_BAR + 70;
  const height = KAPPA_ROW * criteria.length + 24;
  const zero = KAPPA_LABEL + KAPPA_BAR / 2;
  const rows = criteria.map((criterion, index) => {
    const y = 6 + index * KAPPA_ROW;
    const name = criterionName(criterion);
    const kappa = criterion.figures.kappa;
    const label = (
      <text class="label" x="0" y={y + 14}>
        <title>{name}</title>
        {truncate(name, 34)}
      </text>
    );
    if (kappa.value === null) {
      return (
        <>
          {label}
          <text class="none" x={zero + 6} y={y + 14}>
            {NOT_ENOUGH}
          </text>
        </>
      );
    }
    const length = round((Math.abs(kappa.value) * KAPPA_BAR) / 2);
    const x = kappa.value >= 0 ? zero : round(zero - length);
    const tone = kappa.value >= 0.6 ? "good" : kappa.value >= 0.2 ? "fair" : "poor";
    return (
      <>
        {label}
        <rect class={`kappa ${tone}`} x={x} y={y + 3} width={length} height="14" rx="2" />
        <text class="value" x={KAPPA_LABEL + KAPPA_BAR + 8} y={y + 14}>
          {formatFigure(kappa)}
        </text>
      </>
    );
  });
  const axisY = height - 14;
  return (
    <svg
      class="chart kappa-bars"
      role="img"
      aria-label="Cohen's kappa per criterion"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
    >
      <line class="axis" x1={zero} x2={zero} y1="2" y2={axisY} />
      {rows}
      <text class="tick" x={KAPPA_LABEL} y={height - 2}>
        −1
      </text>
      <text class="tick" x={zero - 3} y={height - 2}>
        0
      </text>
      <text class="tick" x={KAPPA_LABEL + KAPPA_BAR - 6} y={height - 2}>
        1
      </text>
    </svg>
  );
}

const PLOT = 200;
const MARGIN = 30;

/** A 0–1 value on a plot axis: x to the right, y upwards. */
const toX = (value: number) => round(MARGIN + value * PLOT);
const toY = (value: number) => round(MARGIN / 2 + (1 - value) * PLOT);

/** A 0–1 by 0–1 plot named `label`: its frame, ticks and axis labels around `children`. */
function plot(kind: string, label: string, axes: readonly [x: string, y: string], children: Child) {
  const size = PLOT + MARGIN * 2;
  const bottom = toY(0);
  return (
    <svg
      class={`chart ${kind}`}
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${size} ${size}`}
    >
      <rect class="frame" x={toX(0)} y={toY(1)} width={PLOT} height={PLOT} />
      <text class="tick" x={toX(0) - 4} y={bottom + 14}>
        0
      </text>
      <text class="tick" x={toX(1) - 4} y={bottom + 14}>
        1
      </text>
      <text class="tick" x={toX(0) - 14} y={toY(1) + 8}>
        1
      </text>
      <text class="axis-label" x={toX(0.5) - 40} y={bottom + 26}>
        {axes[0]}
      </text>
      <text class="axis-label" x="2" y={toY(1) - 4}>
        {axes[1]}
      </text>
      {children}
    </svg>
  );
}

/** Judge score (x) against reviewer score (y) of the marked labels, with both thresholds. */
export function scoreScatter(criterion: CriterionCalibration) {
  const t = criterion.threshold;
  const points = criterion.markedScores.map((point) => (
    <circle class="point" cx={toX(point.judge)} cy={toY(point.reviewer)} r="4">
      <title>{`judge ${formatThreshold(point.judge)}, reviewer ${formatThreshold(point.reviewer)}`}</title>
    </circle>
  ));
  const name = `Judge score against reviewer score for ${criterionName(criterion)}`;
  return plot(
    "scatter",
    name,
    ["judge score", "reviewer score"],
    <>
      <line class="diagonal" x1={toX(0)} y1={toY(0)} x2={toX(1)} y2={toY(1)} />
      <line class="threshold" x1={toX(t)} x2={toX(t)} y1={toY(0)} y2={toY(1)} />
      <line class="threshold" x1={toX(0)} x2={toX(1)} y1={toY(t)} y2={toY(t)} />
      {points}
    </>,
  );
}

/** A threshold marked on the agreement curve: a line across and a dot on the curve. */
function marker(kind: "current" | "best", point: ThresholdPoint) {
  const x = toX(point.threshold);
  return (
    <>
      <line class={kind} x1={x} x2={x} y1={toY(0)} y2={toY(1)} />
      <circle class={kind} cx={x} cy={toY(point.agreement)} r="4">
        <title>{`${kind} ${formatThreshold(point.threshold)}: ${formatPercent(point.agreement)}`}</title>
      </circle>
    </>
  );
}

/** Agreement (y) at every threshold (x), with the current and the best threshold marked. */
export function agreementCurve(criterion: CriterionCalibration) {
  const sweep = criterion.sweep;
  if (sweep === null) return null;
  const line = sweep.curve
    .map((point) => `${toX(point.threshold)},${toY(point.agreement)}`)
    .join(" ");
  return plot(
    "curve",
    `Agreement against threshold for ${criterionName(criterion)}`,
    ["threshold", "agreement"],
    <>
      <polyline class="curve" points={line} />
      {marker("current", sweep.current)}
      {marker("best", sweep.best)}
    </>,
  );
}
