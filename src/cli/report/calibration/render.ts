/** The calibration report in the format asked for with `evalgate calibrate --format`. */
import type { CalibrationReport } from "../../../calibration/reportModel.js";
import { renderCalibrationHtml } from "./html.js";
import { renderCalibrationMarkdown } from "./markdown.js";

export const CALIBRATION_FORMATS = ["md", "html", "json"] as const;
export type CalibrationFormat = (typeof CALIBRATION_FORMATS)[number];

/** `json`: exactly the report object; `md`: Markdown tables; `html`: one self-contained page. */
export function renderCalibrationReport(
  report: CalibrationReport,
  format: CalibrationFormat,
): string {
  switch (format) {
    case "json":
      return `${JSON.stringify(report, null, 2)}\n`;
    case "md":
      return renderCalibrationMarkdown(report);
    case "html":
      return renderCalibrationHtml(report);
  }
}
