/**
 * The report of `evalgate evaluate` for one or several content files. One file: the format as
 * renderReport writes it (junit: one testsuite). Several: junit is one document with a testsuite
 * per file, json an array of { file, result }, table and md one report per file under its name;
 * toon and html take one file only (checked before anything runs: severalFilesProblem).
 */

import type { EvaluateFormat } from "./formats.js";
import { type EvaluatedFile, renderJunitReport } from "./junit.js";
import { escapeMarkdown } from "./markdown.js";
import { renderReport } from "./render.js";

export type { EvaluateFormat } from "./formats.js";

/** The formats that hold the reports of several files in one output. */
const SEVERAL_FILE_FORMATS: readonly EvaluateFormat[] = ["junit", "json", "table", "md"];

/** Why `format` cannot report `count` files, or undefined when it can. */
export function severalFilesProblem(format: EvaluateFormat, count: number): string | undefined {
  if (count <= 1 || SEVERAL_FILE_FORMATS.includes(format)) return undefined;
  return `--format ${format} reports one content file; for ${count} files use ${SEVERAL_FILE_FORMATS.join(", ")}, or run evaluate once per file`;
}

export interface EvaluationReportOptions {
  width?: number;
  /** --fail-under: decides the JUnit "overall" testcase as it decides the exit code. */
  failUnder?: number;
}

export function renderEvaluationReports(
  files: readonly EvaluatedFile[],
  format: EvaluateFormat,
  options: EvaluationReportOptions = {},
): string {
  if (format === "junit") return renderJunitReport(files, options.failUnder);
  const width = options.width === undefined ? {} : { width: options.width };
  const [only] = files;
  if (files.length === 1 && only !== undefined) return renderReport(only.result, format, width);
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
          (each) => `**File:** ${escapeMarkdown(each.file)}\n\n${renderReport(each.result, "md")}`,
        )
        .join("\n");
    case "table":
      return files
        .map((each) => `== ${each.file} ==\n${renderReport(each.result, "table", width)}`)
        .join("\n");
    default:
      throw new Error(severalFilesProblem(format, files.length));
  }
}
