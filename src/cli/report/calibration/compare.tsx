/**
 * `calibrate --compare` as one document in Markdown, HTML or JSON: the calibration report of the
 * period's labels and, beside it, the judge's agreement with the reviewers on the same labels
 * replayed without and with few-shot examples — overall and per criterion, with the differences.
 * The HTML page is JSX (escaping by construction), no script.
 */
import type { ComparedCalibration } from "../../../calibration/reportModel.js";
import {
  COMPARISON_HEADERS,
  comparisonFacts,
  comparisonRows,
} from "../../../service/pages/calibrationText.js";
import { ComparisonSection } from "../../../service/pages/calibrationView.js";
import { renderCalibrationHtml } from "./html.js";
import { escapeMarkdown, renderCalibrationMarkdown } from "./markdown.js";
import type { CalibrationFormat } from "./render.js";

function comparisonMarkdown(compared: ComparedCalibration): string {
  const { comparison } = compared;
  const facts = comparisonFacts(compared, comparison);
  const table = [
    `| ${COMPARISON_HEADERS.join(" | ")} |`,
    `| ${COMPARISON_HEADERS.map(() => "---").join(" | ")} |`,
    ...comparisonRows(comparison).map((r) => `| ${r.map(escapeMarkdown).join(" | ")} |`),
  ];
  return [
    "## Few-shot examples: without and with",
    "",
    escapeMarkdown(facts.measured),
    "",
    escapeMarkdown(facts.labels),
    "",
    ...table,
    "",
    "Δ is with minus without (agreement in percentage points); — where either side has no figure.",
    "",
  ].join("\n");
}

/** `json`: the ComparedCalibration object; `md` and `html`: the report, then the comparison. */
export function renderComparison(compared: ComparedCalibration, format: CalibrationFormat): string {
  if (format === "json") return `${JSON.stringify(compared, null, 2)}\n`;
  if (format === "md") {
    return `${renderCalibrationMarkdown(compared.calibration).trimEnd()}\n\n${comparisonMarkdown(compared)}`;
  }
  return renderCalibrationHtml(
    compared.calibration,
    <ComparisonSection context={compared} comparison={compared.comparison} />,
  );
}
