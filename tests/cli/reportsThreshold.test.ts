/** A score just under its threshold never shows as reaching it, in any report format. */
import { describe, expect, it } from "vitest";
import { renderReport } from "../../src/cli/report/evaluationReports.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { catalogOf, judgeOf } from "../engine/helpers.js";
import { htmlText } from "./htmlText.js";

/** One 0–1 criterion, weight 1, and a passing threshold of 0.8. */
const CATALOG = catalogOf({
  id: "one",
  name: "One",
  version: "1",
  passingThreshold: 0.8,
  criteria: [
    {
      id: "market",
      title: "Market",
      description: "Rate the market.",
      weight: 1,
      method: { kind: "score", scale: { min: 0, max: 1 } },
    },
  ],
});

/** The judge scores 0.7995: 79.95 %, under 0.8, which rounding would show as 0.80 and 80%. */
async function justUnder() {
  const answer = JSON.stringify({ reasoning: "Close.", score: 0.7995, hits: [], misses: [] });
  return evaluateContent({
    content: "Hafen Sensorik GmbH, Hamburg.",
    catalog: CATALOG,
    model: judgeOf(new ScriptedChatModel({ responder: () => answer })),
  });
}

describe("a score just under its threshold", () => {
  it("shows under it in the table, Markdown and HTML reports", async () => {
    const result = await justUnder();
    expect(result.overallScore).toBeCloseTo(0.7995, 10);
    expect(result.criteria[0]?.met).toBe(false);
    expect(result.passed).toBe(false);

    const table = renderReport(result, "table");
    expect(table).toMatch(/^market Market\s+score\s+0\.7995\s+0\.79 \/ 0\.80\s+no\s+Close\.$/m);
    expect(table).toMatch(/^overall score\s+0\.79$/m);

    const md = renderReport(result, "md");
    expect(md).toContain("| market Market | score | 0.7995 | 0.79 | 0.80 | no | Close. |");
    expect(md).toContain("- **overall score:** 0.79");

    const html = htmlText(renderReport(result, "html"));
    expect(html).toContain("Overall 79%: borderline");
    expect(html).toContain("Market: 79% / 80% (score / threshold)");
    expect(html).toContain("79% (0.7995), threshold 80%: not met");

    // The summary every format carries: the overall percent and the native value, cut down.
    for (const text of [table, md, html]) {
      expect(text).toContain("Overall score: 79%");
      expect(text).toContain("Market: 0.79 (score: 0.79)");
    }
  });
});
