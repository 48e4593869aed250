/** An EvaluationResult in the format asked for with `--format`. */
import type { EvaluationResult } from "../../scoring/result.js";
import { encodeResultsToon } from "../../scoring/resultsToon.js";
import type { ReportFormat } from "./formats.js";
import { renderHtmlReport } from "./html.js";
import { renderMarkdownReport } from "./markdown.js";
import { renderTableReport } from "./table.js";

export { REPORT_FORMATS, type ReportFormat } from "./formats.js";

export interface RenderReportOptions {
  /** Width the table format fits into. */
  width?: number;
}

/**
 * `json`: exactly the EvaluationResult; `toon`: the results document in TOON (decodable); `table`:
 * a terminal table; `md`: the same in Markdown; `html`: one self-contained HTML file.
 */
export function renderReport(
  result: EvaluationResult,
  format: ReportFormat,
  options: RenderReportOptions = {},
): string {
  switch (format) {
    case "json":
      return `${JSON.stringify(result, null, 2)}\n`;
    case "toon":
      return `${encodeResultsToon(result)}\n`;
    case "table":
      return renderTableReport(result, options.width === undefined ? {} : { width: options.width });
    case "md":
      return renderMarkdownReport(result);
    case "html":
      return renderHtmlReport(result);
  }
}
