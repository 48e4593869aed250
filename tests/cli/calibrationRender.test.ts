import { describe, expect, it } from "vitest";
import { buildCalibrationReport } from "../../src/calibration/report.js";
import { CalibrationReportSchema } from "../../src/calibration/reportModel.js";
import { renderCalibrationReport } from "../../src/cli/report/calibration/render.js";
import { label, labelHistory } from "../calibration/calibrationHistory.js";
import { htmlText, tagsWithHandlers } from "./htmlText.js";

const GENERATED = "2026-11-02T00:00:00.000Z";
const report = () => buildCalibrationReport(labelHistory(), { generatedAt: GENERATED });

/** Labels whose texts try to break out of HTML elements, attributes and Markdown tables. */
function hostileReport() {
  const hostile = {
    contentType: `<img src=x onerror=alert(1)>`,
    criterionId: `c"><svg onload=alert(2)>`,
    criterionTitle: `Title "><script>alert(3)</script> | pipe`,
  };
  return buildCalibrationReport(
    [
      label({ decisionId: "h1", ...hostile, source: "marked", reviewerScore: 0.2 }),
      label({ decisionId: "h2", ...hostile, judgeScore: 0.3, judgeMet: false }),
    ],
    { generatedAt: GENERATED },
  );
}

describe("calibration report renderers", () => {
  it("json is exactly the report", () => {
    const parsed: unknown = JSON.parse(renderCalibrationReport(report(), "json"));
    expect(CalibrationReportSchema.parse(parsed)).toEqual(report());
  });

  it("markdown tables carry the hand-computed figures", () => {
    const markdown = renderCalibrationReport(report(), "md");
    // c1: agreement 17/20 = 85%, κ = 0.70, ρ marked = 2/√95 ≈ 0.21; threshold 0.70 at 85%,
    // best 0.60 at 18/20 = 90% (see tests/calibration/calibrationReport.test.ts).
    expect(markdown).toContain(
      "| Costs are justified (c1) | 21 | 5 | 16 | 1 | 85% | 0.70 | 0.21 |",
    );
    expect(markdown).toContain("| 0.70 (85%) → 0.60 (90%) |");
    // Gate on budget: 21 decisions, 7 approve, 8 revise, 6 edit, 1 gate judge error (d21) left
    // out: po = 17/20 = 85%, κ = 32/47 ≈ 0.68.
    expect(markdown).toContain("| budget | 21 | 7 | 8 | 6 | 1 | 85% | 0.68 |");
    // Disagreement ranking: c2 first (1 of 1), c1 second (3 of 20 = 15%).
    expect(markdown).toMatch(
      /\| 1 \| budget \| Budget [^\n]*\(c2\) \| 1 of 1 \| 100% \| 1 \| 0 \|/,
    );
    expect(markdown).toContain("| 2 | budget | Costs are justified (c1) | 3 of 20 | 15% | 2 | 1 |");
    expect(markdown).toContain("not enough labels");
  });

  it("names the catalog versions the labels were judged with, per content type", () => {
    const versions = buildCalibrationReport(
      [
        label({ decisionId: "v1", judgedWith: "budget@1.0.1" }),
        label({ decisionId: "v2", judgedWith: "budget@1.0.0" }),
        label({ decisionId: "v3", judgedWith: "budget@1.0.1" }),
        label({ decisionId: "v4" }),
      ],
      { generatedAt: GENERATED },
    );
    expect(versions.contentTypes.map((group) => group.judgedWith)).toEqual([
      ["budget@1.0.0", "budget@1.0.1"],
    ]);
    expect(renderCalibrationReport(versions, "md")).toContain(
      "Judged with budget@1.0.0, budget@1.0.1.",
    );
    expect(renderCalibrationReport(report(), "md")).not.toContain("Judged with");
  });

  it("says a best threshold found on fewer labels than --apply needs is too few to apply", () => {
    // Threshold 0.5; (judge, reviewer): (0.6, 0.2 marked), (0.8, accepted), (0.9, accepted).
    // At 0.50 the judge passes all three, the reviewer two: 2/3 = 66.7%; from 0.61 to 0.80 the
    // judge fails the 0.6: 3/3 = 100%, and 0.61 is the nearest to 0.50.
    const few = buildCalibrationReport(
      [
        [0.6, 0.2],
        [0.8, undefined],
        [0.9, undefined],
      ].map(([judge, reviewer], i) =>
        label({
          decisionId: `f${i}`,
          threshold: 0.5,
          judgeScore: judge as number,
          ...(reviewer === undefined ? {} : { source: "marked", reviewerScore: reviewer }),
        }),
      ),
      { generatedAt: GENERATED },
    );
    expect(renderCalibrationReport(few, "md")).toContain(
      "| 0.50 (66.7%) → 0.61 (100%) on 3 labels, too few to apply |",
    );
  });

  it("markdown escapes what could break a table or inject HTML", () => {
    const markdown = renderCalibrationReport(hostileReport(), "md");
    expect(markdown).not.toMatch(/(?<!\\)<(script|img|svg)/);
    expect(markdown).toContain('Title "\\>\\<script\\>alert(3)\\</script\\> \\| pipe');
  });

  it("html is one self-contained page with the charts and the figures", () => {
    const html = renderCalibrationReport(report(), "html");
    expect(html).toContain(
      `content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;"`,
    );
    expect(html).not.toMatch(/<script|\ssrc=|\shref=|https?:\/\//);
    expect(html).toContain(`<svg class="chart kappa-bars"`);
    expect(html).toContain(`<svg class="chart curve"`);
    expect(html).toContain(`<svg class="chart scatter"`);
    // Five marked c1 scores and one marked c2 score: six points on the scatter charts.
    expect(html.match(/<circle class="point"/g)).toHaveLength(6);
    expect(html).toContain(
      '<td data-label="Threshold (agreement) → best">0.70 (85%) → 0.60 (90%)</td>',
    );
    expect(html).toContain('<td data-label="κ">0.68</td>');
    expect(html).toContain("κ: not enough labels (fewer than 2)");
    expect(html).toContain("κ: not enough labels (no variance)");
  });

  it("html escapes a hostile criterion title, id and content type everywhere", () => {
    const html = renderCalibrationReport(hostileReport(), "html");
    expect(html).not.toMatch(/<script|<img|<svg onload/);
    expect(html).toContain("(c&quot;&gt;&lt;svg onload=alert(2)&gt;)");
    expect(html).toContain("Title &quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt; | pipe");
    expect(html).toContain("Content type: &lt;img Src=x Onerror=alert(1)&gt;");
  });

  it("html shows a title with </style>, <script>, quotes and & as text, in tables and charts", () => {
    const title = 'Kosten </style><script>alert(4)</script> "fair" & <b onclick="x()">sound</b>';
    const escaped =
      "Kosten &lt;/style&gt;&lt;script&gt;alert(4)&lt;/script&gt; &quot;fair&quot; &amp; " +
      "&lt;b onclick=&quot;x()&quot;&gt;sound&lt;/b&gt;";
    const scores = [0.2, 0.4, 0.6, 0.9];
    const html = renderCalibrationReport(
      buildCalibrationReport(
        scores.map((reviewerScore, i) =>
          label({
            decisionId: `k${i}`,
            criterionId: "k&1",
            criterionTitle: title,
            source: "marked",
            reviewerScore,
            judgeScore: scores[(i + 1) % scores.length],
            judgeMet: i % 2 === 0,
          }),
        ),
        { generatedAt: GENERATED },
      ),
      "html",
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<b\b/i);
    expect(tagsWithHandlers(html)).toEqual([]);
    // Only the page's own stylesheet closes a style element.
    expect(html.match(/<\/style>/gi)).toHaveLength(1);
    // In the tables, the card heading, the κ label's title, the charts' labels.
    expect(html).toContain(`<td data-label="Criterion">${escaped} (k&amp;1)</td>`);
    expect(html).toContain(`<h3>${escaped} (k&amp;1)</h3>`);
    expect(html).toContain(
      `aria-label="Judge score against reviewer score for ${escaped} (k&amp;1)"`,
    );
    expect(htmlText(html)).toContain(`${title} (k&1)`);
    // Four marked scores on its scatter chart.
    expect(html.match(/<circle class="point"/g)).toHaveLength(4);
  });
});
