/**
 * The calibration page's figures: the labels' report and the latest few-shot comparison. Each table
 * scrolls on its own and, on a narrow screen, shows each row as a card, so no column is cut off.
 */
import type {
  CalibrationReport,
  ComparisonContext,
  RecordedComparison,
} from "../../calibration/reportModel.js";
import type { CalibrationOverview } from "../../desk/reviewDesk.js";
import { stageName } from "../statusWords.js";
import {
  COMPARISON_HEADERS,
  comparisonRows,
  kappaNote,
  labelCountText,
  measuredWith,
  periodBounds,
  replayedText,
  reportTables,
} from "./calibrationText.js";
import { Layout, type SignedIn, Time } from "./layout.js";
import { QueueTabs } from "./queue.js";

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

/** A figure table under its heading, with its note and the κ note where one is due. */
function ModelTable(props: ReturnType<typeof reportTables>[number]) {
  const { heading, note, headers, rows } = props;
  const kappa = kappaNote(rows);
  return (
    <>
      <h3>{heading}</h3>
      {note === undefined ? null : <p class="note">{note}</p>}
      <FigureTable headers={headers} rows={rows.map((row) => row.cells)} />
      {kappa === undefined ? null : <p class="note kappa-note">{kappa}</p>}
    </>
  );
}

/** "Labels since … until … of …", or `all` when the period is not bounded. */
function Period(props: {
  since: string | null;
  until: string | null;
  contentType: string | null;
  all: string;
}) {
  const bounds = periodBounds(props);
  const { contentType } = props;
  return (
    <>
      {bounds.length === 0 && contentType === null ? props.all : "Labels"}
      {bounds.map(([word, at]) => (
        <>
          {` ${word} `}
          <Time iso={at} />
        </>
      ))}
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
  return (
    <section class="report-figures" id="report">
      <h2>The judge against the reviewers' labels</h2>
      {reportTables(props.report, stageName).map((model) => (
        <ModelTable {...model} />
      ))}
    </section>
  );
}

/** The latest comparison without and with few-shot examples: when, on what, and the table. */
export function ComparisonFigures(props: {
  measurement: ComparisonContext & { comparison: RecordedComparison };
}) {
  const { measurement } = props;
  return (
    <section class="comparison" id="comparison">
      <h2>Few-shot examples: without and with</h2>
      <p class="muted">
        {"Measured "}
        <Time iso={measurement.measuredAt} />
        {` with ${measuredWith(measurement)}`}
      </p>
      <p class="muted">
        <Period {...measurement} all="Every label" />
        {`: ${replayedText(measurement.comparison)}`}
      </p>
      <FigureTable
        headers={COMPARISON_HEADERS}
        rows={comparisonRows(measurement.comparison, stageName)}
      />
      <p class="note">
        The same labels judged again twice: without examples, and with the reviewers' corrections
        decided before each label as examples. Δ is with minus without (agreement in percentage
        points); "—" where either side has no figure.
      </p>
    </section>
  );
}

/* The calibration page (administrators): the judge against the labels, and the latest comparison. */
export function CalibrationPage(
  props: SignedIn & {
    overview: CalibrationOverview;
  },
) {
  const { report, comparison } = props.overview;
  return (
    <Layout title="Calibration" reviewer={props.reviewer} csrf={props.csrf} wide>
      <QueueTabs current="calibration" admin />
      <section class="calibration" id="calibration">
        <h1>Calibration</h1>
        <p class="muted" id="calibration-scope">
          <ScopeLine report={report} /> {labelCountText(report.overall.counts)} of{" "}
          {report.gate.decisions} decisions. A longer or shorter window: <code>?days=N</code>; any
          period: <code>evalgate calibrate --since</code>.
        </p>
      </section>
      <div class="calibration">
        <ReportFigures report={report} />
        {comparison === null ? (
          <section class="comparison" id="comparison">
            <h2>Few-shot examples: without and with</h2>
            <p class="muted" id="no-comparison">
              No comparison recorded yet: <code>evalgate calibrate --compare</code> measures one and
              keeps it here.
            </p>
          </section>
        ) : (
          <ComparisonFigures measurement={comparison} />
        )}
      </div>
      <p>
        <a href="/reviews">Back to the queue</a>
      </p>
    </Layout>
  );
}
