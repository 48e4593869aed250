/** The report of `evalgate evaluate` for one or several files; toon and html take one file only. */

import type { EvaluationResult } from "../../scoring/result.js";
import { encodeResultsToon } from "../../scoring/resultsToon.js";
import type { EvaluateFormat, ReportFormat } from "./formats.js";
import { renderHtmlReport } from "./html.js";
import { type EvaluatedFile, renderJunitReport } from "./junit.js";
import { escapeMarkdown, renderMarkdownReport } from "./markdown.js";
import { renderTableReport } from "./table.js";

interface ReportOptions {
  width?: number;
  /** `--fail-under`: the table, Markdown and HTML reports say the gate the exit code follows. */
  failUnder?: number;
}

const RENDERERS: Record<
  ReportFormat,
  (result: EvaluationResult, options: ReportOptions) => string
> = {
  json: (result) => `${JSON.stringify(result, null, 2)}\n`,
  toon: (result) => `${encodeResultsToon(result)}\n`,
  table: renderTableReport,
  md: renderMarkdownReport,
  html: (result) => renderHtmlReport(result),
};

export function renderReport(
  result: EvaluationResult,
  format: ReportFormat,
  options: ReportOptions = {},
): string {
  return RENDERERS[format](result, options);
}

const SEVERAL_FILE_FORMATS: readonly EvaluateFormat[] = ["junit", "json", "table", "md"];

export function severalFilesProblem(format: EvaluateFormat, count: number): string | undefined {
  if (count <= 1 || SEVERAL_FILE_FORMATS.includes(format)) return undefined;
  return `--format ${format} reports one content file; for ${count} files use ${SEVERAL_FILE_FORMATS.join(", ")}, or run evaluate once per file`;
}

/** Every file's report; --fail-under decides the JUnit "overall" testcase as the exit code. */
export function renderEvaluationReports(
  files: readonly EvaluatedFile[],
  format: EvaluateFormat,
  options: ReportOptions = {},
): string {
  if (format === "junit") return renderJunitReport(files, options.failUnder);
  const [only] = files;
  if (files.length === 1 && only !== undefined) return renderReport(only.result, format, options);
  switch (format) {
    case "json":
      return `${JSON.stringify(
        files.map((each) => ({ file: each.file, result: each.result })),
        null,
        2,
      )}\n`;
    case "md":
      return files
        .map(
          (each) =>
            `**File:** ${escapeMarkdown(each.file)}\n\n${renderReport(each.result, "md", options)}`,
        )
        .join("\n");
    case "table":
      return files
        .map((each) => `== ${each.file} ==\n${renderReport(each.result, "table", options)}`)
        .join("\n");
    default:
      throw new Error(severalFilesProblem(format, files.length));
  }
}
