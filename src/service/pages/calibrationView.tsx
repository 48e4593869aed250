/**
 * The calibration figures as HTML tables, shared by the calibration report file and the review
 * service's calibration page: the report's overall, gate and per-criterion figures, and a
 * comparison without and with few-shot examples, side by side with the differences. JSX: every
 * text from labels, catalogs and the store is escaped by construction.
 */
import type {
  ComparisonContext,
  RecordedComparison,
} from "../../scoring/calibration/comparison.js";
import type { CalibrationReport } from "../../scoring/calibration/reportSchema.js";
import {
  COMPARISON_HEADERS,
  comparisonFacts,
  comparisonRows,
  criterionName,
  FIGURE_HEADERS,
  figureCells,
  GATE_HEADERS,
  gateCells,
  thresholdText,
} from "./calibrationText.js";

export function htmlTable(headers: readonly string[], rows: readonly (readonly string[])[]) {
  return (
    <table>
      <thead>
        <tr>
          {headers.map((header) => (
            <th>{header}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr>
            {row.map((cell) => (
              <td>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The with/without comparison: when and on what it was measured, and the table. */
export function ComparisonSection(props: {
  context: ComparisonContext;
  comparison: RecordedComparison;
}) {
  const facts = comparisonFacts(props.context, props.comparison);
  return (
    <section class="comparison" id="comparison">
      <h2>Few-shot examples: without and with</h2>
      <p class="muted">{facts.measured}</p>
      <p class="muted">{facts.labels}</p>
      {htmlTable(COMPARISON_HEADERS, comparisonRows(props.comparison))}
      <p class="note">
        The same labels judged again twice: without examples, and with the reviewers' corrections
        decided before each label as examples. Δ is with minus without (agreement in percentage
        points); "—" where either side has no figure.
      </p>
    </section>
  );
}

/** The report's figures without charts: every label, the gate, and each content type's criteria. */
export function ReportFigures(props: { report: CalibrationReport }) {
  const { report } = props;
  const gateRows = [
    ["all", ...gateCells(report.gate)],
    ...report.contentTypes.map((group) => [group.contentType, ...gateCells(group.gate)]),
  ];
  return (
    <section class="report-figures" id="report">
      <h2>The judge against the reviewers' labels</h2>
      {htmlTable(["Scope", ...FIGURE_HEADERS], [["every label", ...figureCells(report.overall)]])}
      <h3>The gate: judge's pass against reviewer's approval</h3>
      {htmlTable(["Content type", ...GATE_HEADERS], gateRows)}
      {report.contentTypes.map((group) => (
        <>
          <h3>Content type: {group.contentType}</h3>
          {htmlTable(
            ["Criterion", ...FIGURE_HEADERS, "Threshold (agreement) → best"],
            group.criteria.map((c) => [
              criterionName(c),
              ...figureCells(c.figures),
              thresholdText(c),
            ]),
          )}
        </>
      ))}
    </section>
  );
}
