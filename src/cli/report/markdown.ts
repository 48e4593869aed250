/** The Markdown report: the table report's content, with every piece of result text escaped. */
import type { EvaluationResult } from "../../scoring/result.js";
import { oneLine, truncate } from "../../shortText.js";
import { reportContent } from "./summary.js";

const REASONING_LIMIT = 280;

/** Result text (which repeats untrusted content) can open no link, emphasis, code, HTML or cell. */
export function escapeMarkdown(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>#|~]/g, (char) => `\\${char}`);
}

/** escapeMarkdown for a paragraph of its own: a leading list marker is escaped too. */
function escapeMarkdownParagraph(text: string): string {
  return escapeMarkdown(text)
    .replace(/^[-+]/, (marker) => `\\${marker}`)
    .replace(/^(\d+)([.)])/, (_match, digits: string, mark: string) => `${digits}\\${mark}`);
}

/** A Markdown table, every cell escaped; `align` is each column's delimiter (`---` by default). */
export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly string[] = headers.map(() => "---"),
): string {
  const line = (cells: readonly string[]) => `| ${cells.map(escapeMarkdown).join(" | ")} |`;
  return [line(headers), `|${align.join("|")}|`, ...rows.map(line)].join("\n");
}

export function renderMarkdownReport(
  result: EvaluationResult,
  options: { failUnder?: number } = {},
): string {
  const content = reportContent(result, options.failUnder);
  const out: string[] = [`# ${escapeMarkdown(content.title)}`, ""];
  for (const fact of content.facts) {
    out.push(`- **${escapeMarkdown(fact.label)}:** ${escapeMarkdown(fact.value)}`);
  }
  const headers = ["Criterion", "Method", "Native", "Score", "Threshold", "Met", "Reasoning"];
  const rows = content.rows.map((row) => [
    row.criterion,
    row.method,
    row.native,
    row.score,
    row.threshold,
    row.met,
    truncate(row.reasoning, REASONING_LIMIT),
  ]);
  const align = ["---", "---", "---", "---:", "---:", "---", "---"];
  out.push("", "## Criteria", "", markdownTable(headers, rows, align));
  // One Markdown line per feedback line, kept apart by hard line breaks.
  out.push("", "## Summary", "", content.summary.map(escapeMarkdownParagraph).join("  \n"));
  for (const list of content.lists) {
    out.push("", `## ${list.title}`, "");
    for (const item of list.items) out.push(`- ${escapeMarkdown(item)}`);
  }
  return `${out.join("\n")}\n`;
}
