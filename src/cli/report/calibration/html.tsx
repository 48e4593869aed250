/**
 * The calibration report as one self-contained page: no script, a CSP that loads nothing, text
 * escaped by JSX.
 */

import type { Child } from "hono/jsx";
import type {
  CalibrationReport,
  ContentTypeCalibration,
  CriterionCalibration,
} from "../../../calibration/reportModel.js";
import { REVIEW_CSS } from "../../../service/pages/assets.js";
import {
  FigureTable,
  ReportFigures,
  ScopeLine,
} from "../../../service/pages/calibrationFigures.js";
import {
  criterionName,
  DISAGREEMENT_HEADERS,
  disagreementRows,
  labelCountText,
  missingReason,
  NOT_ENOUGH,
  thresholdText,
} from "../../../service/pages/calibrationText.js";
import { renderStandaloneFile } from "../../../service/pages/proposalView.js";
import { stageName } from "../../../service/statusWords.js";
import { agreementCurve, kappaBars, scoreScatter } from "./charts.js";

/** The review pages' stylesheet, then the charts' own rules (no rule loads anything). */
const CALIBRATION_STYLE = `${REVIEW_CSS}
svg.chart { width: auto; max-width: 100%; } svg.chart text { font-size: 11px; }
svg.chart .tick, svg.chart .axis-label, svg.chart .none { fill: var(--muted); }
svg.chart .axis, svg.chart .diagonal { stroke: var(--muted); stroke-width: 1; }
svg.chart .diagonal { stroke-dasharray: 3 3; } svg.chart .frame { fill: none; stroke: var(--line); }
svg.chart .threshold { stroke: var(--warn); stroke-width: 1; stroke-dasharray: 4 3; }
svg.chart .kappa.good { fill: var(--ok); } svg.chart .kappa.fair { fill: var(--warn); }
svg.chart .kappa.poor { fill: var(--bad); } svg.chart .point { fill: var(--accent); fill-opacity: .6; }
svg.chart .curve { fill: none; stroke: var(--accent); stroke-width: 2; }
svg.chart line.current { stroke: var(--ink); } svg.chart circle.current { fill: var(--ink); }
svg.chart line.best { stroke: var(--ok); stroke-dasharray: 4 3; } svg.chart circle.best { fill: var(--ok); }
.charts { display: flex; flex-wrap: wrap; gap: 1rem; }
footer { color: var(--muted); font-size: .85rem; margin: 1rem 0 2rem; }
`;

function criterionCard(criterion: CriterionCalibration) {
  const { figures } = criterion;
  const missing = [
    ["κ", figures.kappa],
    ["ρ marked", figures.spearmanMarked],
  ] as const;
  const notes = missing
    .filter(([, figure]) => figure.value === null)
    .map(([name, figure]) => `${name}: ${missingReason(figure)}`);
  const facts = [
    labelCountText(figures.counts),
    `method ${criterion.method}`,
    `threshold ${thresholdText(criterion)}`,
    criterion.thresholdsSeen.length > 1
      ? `thresholds seen ${criterion.thresholdsSeen.map((t) => t.toFixed(2)).join(", ")}`
      : "",
  ].filter((fact) => fact !== "");
  const curve = agreementCurve(criterion);
  const scatter = criterion.markedScores.length === 0 ? null : scoreScatter(criterion);
  return (
    <article class="criterion">
      <h3>{criterionName(criterion)}</h3>
      <p class="muted">{facts.join(" · ")}</p>
      {notes.length === 0 ? null : <p class="note">{notes.join("; ")}</p>}
      {curve === null && scatter === null ? (
        <p class="note">No chart: {NOT_ENOUGH} for a threshold sweep, and no marked score.</p>
      ) : (
        <div class="charts">
          {curve}
          {scatter}
        </div>
      )}
    </article>
  );
}

/** A content type's charts: κ per criterion, then each criterion's curve and scatter. */
function chartsOf(group: ContentTypeCalibration) {
  return (
    <section class="content-type">
      <h2>Charts: {stageName(group.contentType)}</h2>
      <h3>Cohen's κ per criterion</h3>
      {kappaBars(group.criteria)}
      {group.criteria.map(criterionCard)}
    </section>
  );
}

export function renderCalibrationHtml(report: CalibrationReport, beside?: Child): string {
  return renderStandaloneFile({
    title: "Calibration report",
    css: CALIBRATION_STYLE,
    body: (
      <main class="wide calibration">
        <header>
          <h1>Calibration report</h1>
          <p class="muted">
            <ScopeLine report={report} />
          </p>
        </header>
        <ReportFigures report={report} />
        {beside}
        <section class="disagreements">
          <h2>Criteria whose judge disagrees most</h2>
          {report.disagreements.length === 0 ? (
            <p>No criterion's judge disagreed with a reviewer.</p>
          ) : (
            <FigureTable headers={DISAGREEMENT_HEADERS} rows={disagreementRows(report)} />
          )}
        </section>
        {report.contentTypes.map(chartsOf)}
        <footer>
          Generated {report.generatedAt}. “{NOT_ENOUGH}”: fewer than 2 labels, or labels that do not
          vary (κ and ρ are undefined there). Judge errors are counted apart and enter no figure.
        </footer>
      </main>
    ),
  });
}
