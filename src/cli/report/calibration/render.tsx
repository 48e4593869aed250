import type { CalibrationReport, ComparedCalibration } from "../../../calibration/reportModel.js";
import { ComparisonFigures } from "../../../service/pages/calibrationFigures.js";
import {
  COMPARISON_HEADERS,
  comparisonRows,
  DISAGREEMENT_HEADERS,
  disagreementRows,
  kappaNote,
  measuredWith,
  periodText,
  replayedText,
  reportTables,
  scopeLine,
} from "../../../service/pages/calibrationText.js";
import { escapeMarkdown, markdownTable as table } from "../markdown.js";
import { renderCalibrationHtml } from "./html.js";

export const CALIBRATION_FORMATS = ["md", "html", "json"] as const;
export type CalibrationFormat = (typeof CALIBRATION_FORMATS)[number];

/** `json`: exactly the report object; `md`: Markdown tables; `html`: one self-contained page. */
export function renderCalibrationReport(
  report: CalibrationReport,
  format: CalibrationFormat,
): string {
  if (format === "json") return `${JSON.stringify(report, null, 2)}\n`;
  return format === "md" ? renderCalibrationMarkdown(report) : renderCalibrationHtml(report);
}

/** `json`: the ComparedCalibration object; `md` and `html`: the report, then the comparison. */
export function renderComparison(compared: ComparedCalibration, format: CalibrationFormat): string {
  if (format === "json") return `${JSON.stringify(compared, null, 2)}\n`;
  if (format === "md") {
    const report = renderCalibrationMarkdown(compared.calibration).trimEnd();
    return `${report}\n\n${comparisonMarkdown(compared)}`;
  }
  return renderCalibrationHtml(compared.calibration, <ComparisonFigures measurement={compared} />);
}

export function renderCalibrationMarkdown(report: CalibrationReport): string {
  const figureTables = reportTables(report).flatMap(({ heading, note, headers, rows }) => [
    `## ${escapeMarkdown(heading)}`,
    ...[note, kappaNote(rows)].flatMap((text) =>
      text === undefined ? [] : [escapeMarkdown(text)],
    ),
    table(
      headers,
      rows.map((row) => row.cells),
    ),
  ]);
  const sections = [
    "# Calibration report",
    `${escapeMarkdown(scopeLine(report))} Generated ${escapeMarkdown(report.generatedAt)}.`,
    ...figureTables,
    "## Criteria whose judge disagrees most",
    report.disagreements.length === 0
      ? "No criterion's judge disagreed with a reviewer."
      : table(DISAGREEMENT_HEADERS, disagreementRows(report)),
    "“Not enough labels”: fewer than 2 labels, or labels that do not vary (κ and ρ are undefined there). Judge errors are counted apart and enter no figure.",
  ];
  return `${sections.join("\n\n")}\n`;
}

/** The comparison without and with few-shot examples, after the report of the same labels. */
export function comparisonMarkdown(compared: ComparedCalibration): string {
  return [
    "## Few-shot examples: without and with",
    escapeMarkdown(`Measured ${compared.measuredAt} with ${measuredWith(compared)}`),
    escapeMarkdown(`${periodText(compared, "Every label")}: ${replayedText(compared.comparison)}`),
    table(COMPARISON_HEADERS, comparisonRows(compared.comparison)),
    "Δ is with minus without (agreement in percentage points); — where either side has no figure.",
  ]
    .join("\n\n")
    .concat("\n");
}
