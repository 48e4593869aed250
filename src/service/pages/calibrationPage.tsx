/** The calibration page (administrators): the judge against the labels, and the latest comparison. */
import type { CalibrationOverview } from "../../desk/reviewDesk.js";
import { ComparisonFigures, ReportFigures, ScopeLine } from "./calibrationFigures.js";
import { labelCountText } from "./calibrationText.js";
import { Layout, type SignedIn } from "./layout.js";
import { QueueTabs } from "./queue.js";

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
