/**
 * The calibration figures as HTML tables for the report files (`evalgate calibrate --format html`,
 * `--compare`): a table of cells, and a comparison without and with few-shot examples, side by
 * side with the differences. JSX: every text from labels, catalogs and the store is escaped by
 * construction. The review service's page draws its own (calibrationFigures.tsx).
 */
import type { ComparisonContext, RecordedComparison } from "../../calibration/reportModel.js";
import { COMPARISON_HEADERS, comparisonFacts, comparisonRows } from "./calibrationText.js";

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
