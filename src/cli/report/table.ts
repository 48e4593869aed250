/** The terminal report: a table of the criteria, then the overall result and the feedback lists. */
import type { EvaluationResult } from "../../scoring/result.js";
import { oneLine, truncate } from "../../shortText.js";
import { padTo, reportContent } from "./summary.js";

interface TableReportOptions {
  /** Line width the table fits into (the reasoning column takes what is left). Default 120. */
  width?: number;
  /** `--fail-under`: the report says the gate the exit code follows. */
  failUnder?: number;
}

const MAX_CRITERION_WIDTH = 36;
const MIN_REASONING_WIDTH = 24;
const GAP = "  ";

export function renderTableReport(
  result: EvaluationResult,
  options: TableReportOptions = {},
): string {
  const width = Math.max(80, options.width ?? 120);
  const content = reportContent(result, options.failUnder);
  const header = ["criterion", "method", "native", "score / threshold", "met", "reasoning"];
  const rows = content.rows.map((row) => {
    return [
      truncate(row.criterion, MAX_CRITERION_WIDTH),
      row.method,
      truncate(row.native, 16),
      `${row.score} / ${row.threshold}`,
      row.met,
      row.reasoning,
    ];
  });
  const fixed = header
    .slice(0, -1)
    .map((title, column) =>
      Math.max(title.length, ...rows.map((row) => Array.from(row[column] ?? "").length)),
    );
  const used = fixed.reduce((sum, w) => sum + w + GAP.length, 0);
  const reasoningWidth = Math.max(MIN_REASONING_WIDTH, width - used);
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => {
        const columnWidth = fixed[column];
        return columnWidth === undefined
          ? truncate(cell, reasoningWidth)
          : padTo(cell, columnWidth);
      })
      .join(GAP)
      .trimEnd();

  const out: string[] = [content.title, ""];
  out.push(line(header));
  out.push(line([...fixed.map((w) => "-".repeat(w)), "-".repeat(reasoningWidth)]));
  for (const row of rows) out.push(line(row));
  out.push("");

  const labelWidth = Math.max(...content.facts.map((f) => f.label.length));
  for (const fact of content.facts) out.push(`${padTo(fact.label, labelWidth)}  ${fact.value}`);
  out.push("", "Summary");
  for (const line of content.summary) out.push(`  ${line}`);
  for (const list of content.lists) {
    out.push("", list.title);
    for (const item of list.items) out.push(`  - ${oneLine(item)}`);
  }
  return `${out.join("\n")}\n`;
}
