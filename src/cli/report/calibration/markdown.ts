import type { CalibrationReport, ComparedCalibration } from "../../../calibration/reportModel.js";
import {
  COMPARISON_HEADERS,
  comparisonFacts,
  comparisonRows,
  criterionName,
  DISAGREEMENT_HEADERS,
  disagreementRows,
  FIGURE_HEADERS,
  figureCells,
  GATE_HEADERS,
  gateCells,
  scopeLine,
  thresholdText,
} from "../../../service/pages/calibrationText.js";
import { escapeMarkdown } from "../markdown.js";

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(escapeMarkdown).join(" | ")} |`;
  return [line(headers), `|${headers.map(() => "---").join("|")}|`, ...rows.map(line)].join("\n");
}

function contentTypeSection(report: CalibrationReport, index: number): string {
  const group = report.contentTypes[index];
  if (group === undefined) return "";
  const rows = group.criteria.map((criterion) => [
    criterionName(criterion),
    ...figureCells(criterion.figures),
    thresholdText(criterion),
  ]);
  return [
    `## Content type: ${escapeMarkdown(group.contentType)}`,
    table(["Criterion", ...FIGURE_HEADERS, "Threshold (agreement) → best"], rows),
    `Gate: ${gateCells(group.gate).map(escapeMarkdown).join(" · ")} (decisions, approve, revise, edit, agreement, κ)`,
  ].join("\n\n");
}

export function renderCalibrationMarkdown(report: CalibrationReport): string {
  const sections = [
    "# Calibration report",
    `${escapeMarkdown(scopeLine(report))} Generated ${escapeMarkdown(report.generatedAt)}.`,
    "## Overall",
    table(["Scope", ...FIGURE_HEADERS], [["every label", ...figureCells(report.overall)]]),
    "## The gate: judge's pass against reviewer's approval",
    "Revise and edit count as the reviewer not passing the content.",
    table(
      ["Content type", ...GATE_HEADERS],
      [
        ["all", ...gateCells(report.gate)],
        ...report.contentTypes.map((group) => [group.contentType, ...gateCells(group.gate)]),
      ],
    ),
    "## Criteria whose judge disagrees most",
    report.disagreements.length === 0
      ? "No criterion's judge disagreed with a reviewer."
      : table(DISAGREEMENT_HEADERS, disagreementRows(report)),
    ...report.contentTypes.map((_, index) => contentTypeSection(report, index)),
    "“Not enough labels”: fewer than 2 labels, or labels that do not vary (κ and ρ are undefined there). Judge errors are counted apart and enter no figure.",
  ];
  return `${sections.join("\n\n")}\n`;
}

/** The comparison without and with few-shot examples, after the report of the same labels. */
export function comparisonMarkdown(compared: ComparedCalibration): string {
  const facts = comparisonFacts(compared, compared.comparison);
  return [
    "## Few-shot examples: without and with",
    escapeMarkdown(facts.measured),
    escapeMarkdown(facts.labels),
    table(COMPARISON_HEADERS, comparisonRows(compared.comparison)),
    "Δ is with minus without (agreement in percentage points); — where either side has no figure.",
  ]
    .join("\n\n")
    .concat("\n");
}
