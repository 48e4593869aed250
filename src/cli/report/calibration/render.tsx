import type { CalibrationReport, ComparedCalibration } from "../../../calibration/reportModel.js";
import { ComparisonFigures } from "../../../service/pages/calibrationFigures.js";
import { renderCalibrationHtml } from "./html.js";
import { comparisonMarkdown, renderCalibrationMarkdown } from "./markdown.js";

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
