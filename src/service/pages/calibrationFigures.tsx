/**
 * The calibration page's figures: the labels' report and the latest few-shot comparison. Each table
 * scrolls on its own and, on a narrow screen, shows each row as a card, so no column is cut off.
 */
import type {
  CalibrationReport,
  ComparisonContext,
  RecordedComparison,
} from "../../calibration/reportModel.js";
import { stageName } from "../statusWords.js";

import {
  COMPARISON_HEADERS,
  comparisonRows,
  criterionName,
  FIGURE_HEADERS,
  figureCells,
  GATE_HEADERS,
  gateCells,
  type KappaRow,
  kappaNote,
  thresholdText,
} from "./calibrationText.js";
import { Time } from "./time.js";

export function FigureTable(props: {
  headers: readonly string[];
  rows: readonly (readonly string[])[];
  id?: string;
}) {
  return (
    <div class="table-scroll">
      <table class="figures" id={props.id}>
        <thead>
          <tr>
            {props.headers.map((header) => (
              <th scope="col">{header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr>
              {row.map((cell, index) => (
                <td data-label={props.headers[index]}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KappaNote(props: { rows: readonly KappaRow[] }) {
  const note = kappaNote(props.rows);
  return note === undefined ? null : <p class="note kappa-note">{note}</p>;
}

/** "Labels since … until … of …", or `all` when the period is not bounded. */
function Period(props: {
  since: string | null;
  until: string | null;
  contentType: string | null;
  all: string;
}) {
  const { since, until, contentType } = props;
  return (
    <>
      {since === null && until === null && contentType === null ? props.all : "Labels"}
      {since === null ? null : (
        <>
          {" since "}
          <Time iso={since} />
        </>
      )}
      {until === null ? null : (
        <>
          {" until "}
          <Time iso={until} />
        </>
      )}
      {contentType === null ? null : ` of ${stageName(contentType)}`}
    </>
  );
}

/** What the report covers: the window asked for and the decisions found. */
export function ScopeLine(props: { report: CalibrationReport }) {
  const { firstDecision, lastDecision } = props.report.window;
  return (
    <>
      <Period {...props.report.window} all="All labels" />
      {": "}
      {firstDecision === null ? (
        "no reviewer labels found."
      ) : (
        <>
          {"decisions from "}
          <Time iso={firstDecision} />
          {" to "}
          <Time iso={lastDecision ?? firstDecision} />.
        </>
      )}
    </>
  );
}

/** The report's figures: every label, the gate, and each content type's criteria. */
export function ReportFigures(props: { report: CalibrationReport }) {
  const { report } = props;
  const gates = [
    { name: "all", gate: report.gate },
    ...report.contentTypes.map((g) => ({ name: stageName(g.contentType), gate: g.gate })),
  ];
  return (
    <section class="report-figures" id="report">
      <h2>The judge against the reviewers' labels</h2>
      <FigureTable
        headers={["Scope", ...FIGURE_HEADERS]}
        rows={[["every label", ...figureCells(report.overall)]]}
      />
      <KappaNote rows={[{ name: "every label", ...report.overall }]} />
      <h3>The gate: judge's pass against reviewer's approval</h3>
      <FigureTable
        headers={["Content type", ...GATE_HEADERS]}
        rows={gates.map(({ name, gate }) => [name, ...gateCells(gate)])}
      />
      <KappaNote rows={gates.map(({ name, gate }) => ({ name, ...gate }))} />
      {report.contentTypes.map((group) => (
        <>
          <h3>{`Content type: ${stageName(group.contentType)}`}</h3>
          <FigureTable
            headers={["Criterion", ...FIGURE_HEADERS, "Threshold (agreement) → best"]}
            rows={group.criteria.map((c) => [
              criterionName(c),
              ...figureCells(c.figures),
              thresholdText(c),
            ])}
          />
          <KappaNote rows={group.criteria.map((c) => ({ name: criterionName(c), ...c.figures }))} />
        </>
      ))}
    </section>
  );
}

/** The latest comparison without and with few-shot examples: when, on what, and the table. */
export function ComparisonFigures(props: {
  measurement: ComparisonContext & { comparison: RecordedComparison };
}) {
  const { measurement } = props;
  const { comparison, catalog } = measurement;
  const { noContent, notInCatalog } = comparison.skipped;
  return (
    <section class="comparison" id="comparison">
      <h2>Few-shot examples: without and with</h2>
      <p class="muted">
        {"Measured "}
        <Time iso={measurement.measuredAt} />
        {` with ${measurement.model}, catalog ${catalog.id} version ${catalog.version}.`}
      </p>
      <p class="muted">
        <Period {...measurement} all="Every label" />
        {`: ${comparison.labels} in the period, ${comparison.replayed} judged again without and ` +
          `with examples (skipped: ${noContent} without kept content, ${notInCatalog} not judged ` +
          "by the model in this catalog)."}
      </p>
      <FigureTable headers={COMPARISON_HEADERS} rows={comparisonRows(comparison, stageName)} />
      <p class="note">
        The same labels judged again twice: without examples, and with the reviewers' corrections
        decided before each label as examples. Δ is with minus without (agreement in percentage
        points); "—" where either side has no figure.
      </p>
    </section>
  );
}
