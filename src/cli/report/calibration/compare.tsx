/**
 * `calibrate --compare` as Markdown, HTML or JSON: the judge's agreement with the reviewers on the
 * same labels, replayed without and with few-shot examples, side by side. The HTML page is JSX
 * with the calibration report's own style and table (escaping by construction), no script.
 */
import type { CalibrationComparison } from "../../../orchestrator/calibrationReplay.js";
import type { GroupFigures } from "../../../scoring/calibration/criterionCalibration.js";
import { renderStandaloneFile } from "../../../service/pages/standaloneFile.js";
import { CALIBRATION_STYLE, htmlTable } from "./html.js";
import type { CalibrationFormat } from "./render.js";
import { formatFigure, formatShare } from "./text.js";

const HEADERS = ["Figure", "Without examples", "With examples"] as const;

function rows(comparison: CalibrationComparison): string[][] {
  const row = (name: string, of: (f: GroupFigures) => string) => [
    name,
    of(comparison.without),
    of(comparison.with),
  ];
  return [
    row("Labels compared", (f) => String(f.counts.compared)),
    row("Judge errors", (f) => String(f.counts.judgeErrors)),
    row("Agreement", (f) => formatShare(f.agreement)),
    row("Cohen's κ (pass/fail)", (f) => formatFigure(f.kappa)),
    row("Spearman's ρ (marked)", (f) => formatFigure(f.spearmanMarked)),
    row("Spearman's ρ (all)", (f) => formatFigure(f.spearmanAll)),
  ];
}

function summary(comparison: CalibrationComparison): string {
  const shown = comparison.replays.filter((r) => r.examples.length > 0).length;
  const { noContent, notInCatalog } = comparison.skipped;
  return (
    `${comparison.replayed} of ${comparison.labels} labels judged again in both arms ` +
    `(${shown} with at least one example; each shown only corrections decided before it). ` +
    `Skipped: ${noContent} without kept content, ${notInCatalog} not judged by the model in this catalog.`
  );
}

function markdown(comparison: CalibrationComparison): string {
  const table = [
    `| ${HEADERS.join(" | ")} |`,
    `| ${HEADERS.map(() => "---").join(" | ")} |`,
    ...rows(comparison).map((r) => `| ${r.join(" | ")} |`),
  ];
  return `# Few-shot examples: replayed calibration\n\n${summary(comparison)}\n\n${table.join("\n")}\n`;
}

function html(comparison: CalibrationComparison): string {
  return renderStandaloneFile({
    title: "Few-shot examples: replayed calibration",
    css: CALIBRATION_STYLE,
    body: (
      <>
        <h1>Few-shot examples: replayed calibration</h1>
        <p>{summary(comparison)}</p>
        {htmlTable(HEADERS, rows(comparison))}
      </>
    ),
  });
}

export function renderComparison(comparison: CalibrationComparison, format: CalibrationFormat) {
  if (format === "json") return `${JSON.stringify(comparison, null, 2)}\n`;
  return format === "html" ? html(comparison) : markdown(comparison);
}
