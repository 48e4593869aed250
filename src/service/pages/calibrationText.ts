/** How the calibration report's figures read, in its Markdown and HTML forms and on the page. */

import { type AgreementTable, type Figure, tableSize } from "../../calibration/figures.js";
import type {
  CalibrationReport,
  ComparisonContext,
  CriterionCalibration,
  GateFigures,
  GroupFigures,
  RecordedComparison,
  ThresholdPoint,
} from "../../calibration/reportModel.js";

export const NOT_ENOUGH = "not enough labels";

export function formatFigure(figure: Figure): string {
  return figure.value === null ? NOT_ENOUGH : figure.value.toFixed(2);
}

function formatShare(figure: Figure): string {
  return figure.value === null ? NOT_ENOUGH : formatPercent(figure.value);
}

export function formatPercent(share: number): string {
  return `${Number((share * 100).toFixed(1))}%`;
}

export function missingReason(figure: Figure): string {
  if (figure.missing === null) return "";
  return `${NOT_ENOUGH} (${figure.missing === "too-few-labels" ? "fewer than 2" : "no variance"})`;
}

export function formatThreshold(threshold: number): string {
  return threshold.toFixed(2);
}

function pointText(point: ThresholdPoint): string {
  return `${formatThreshold(point.threshold)} (${formatPercent(point.agreement)})`;
}

/** "0.70 (85%) → 0.60 (90%)": agreement at the current threshold and at the best one. */
export function thresholdText(criterion: CriterionCalibration): string {
  if (criterion.sweep === null) return `${formatThreshold(criterion.threshold)} (${NOT_ENOUGH})`;
  const { current, best } = criterion.sweep;
  if (best.threshold === current.threshold) return `${pointText(current)}, already the best`;
  return `${pointText(current)} → ${pointText(best)}`;
}

export function criterionName(criterion: { title: string; criterionId: string }): string {
  const title = criterion.title.trim();
  return title === "" || title === criterion.criterionId
    ? criterion.criterionId
    : `${title} (${criterion.criterionId})`;
}

const GATE_HEADERS = ["Decisions", "Approve", "Revise", "Edit", "Agreement", "κ"] as const;

const FIGURE_HEADERS = [
  "Labels",
  "Marked",
  "Accepted",
  "Judge errors",
  "Agreement",
  "κ",
  "ρ marked",
  "ρ all",
] as const;

function figureCells(figures: GroupFigures): string[] {
  const { counts } = figures;
  return [
    String(counts.labels),
    String(counts.marked),
    String(counts.accepted),
    String(counts.judgeErrors),
    formatShare(figures.agreement),
    formatFigure(figures.kappa),
    formatFigure(figures.spearmanMarked),
    formatFigure(figures.spearmanAll),
  ];
}

function gateCells(gate: GateFigures): string[] {
  return [
    String(gate.decisions),
    String(gate.approve),
    String(gate.revise),
    String(gate.edit),
    formatShare(gate.agreement),
    formatFigure(gate.kappa),
  ];
}

/** A row of a figure table: its cells, and its name and figures for the κ note. */
export type FigureRow = KappaRow & { cells: string[] };

/** One table of the report's figures, as the Markdown report, the HTML report and the page show it. */
export interface FigureTableModel {
  heading: string;
  note?: string;
  headers: readonly string[];
  rows: FigureRow[];
}

function figureRow(name: string, cells: readonly string[], figures: Omit<KappaRow, "name">) {
  const { table, agreement, kappa } = figures;
  return { name, cells: [name, ...cells], table, agreement, kappa };
}

/** Every label, the gate, then each content type's criteria (`typeName`: titles or ids). */
export function reportTables(
  report: CalibrationReport,
  typeName: (contentType: string) => string = (id) => id,
): FigureTableModel[] {
  const gates = [
    figureRow("all", gateCells(report.gate), report.gate),
    ...report.contentTypes.map((g) =>
      figureRow(typeName(g.contentType), gateCells(g.gate), g.gate),
    ),
  ];
  return [
    {
      heading: "Every label",
      headers: ["Scope", ...FIGURE_HEADERS],
      rows: [figureRow("every label", figureCells(report.overall), report.overall)],
    },
    {
      heading: "The gate: judge's pass against reviewer's approval",
      note: "Revise and edit count as the reviewer not passing the content.",
      headers: ["Content type", ...GATE_HEADERS],
      rows: gates,
    },
    ...report.contentTypes.map((group) => ({
      heading: `Content type: ${typeName(group.contentType)}`,
      headers: ["Criterion", ...FIGURE_HEADERS, "Threshold (agreement) → best"],
      rows: group.criteria.map((c) =>
        figureRow(criterionName(c), [...figureCells(c.figures), thresholdText(c)], c.figures),
      ),
    })),
  ];
}

export const DISAGREEMENT_HEADERS = [
  "#",
  "Content type",
  "Criterion",
  "Disagreed",
  "Rate",
  "Judge too lenient",
  "Judge too strict",
] as const;

export function disagreementRows(report: CalibrationReport): string[][] {
  return report.disagreements.map((entry, index) => [
    String(index + 1),
    entry.contentType,
    criterionName(entry),
    `${entry.disagreed} of ${entry.compared}`,
    formatPercent(entry.rate),
    String(entry.judgeTooLenient),
    String(entry.judgeTooStrict),
  ]);
}

interface Period {
  since: string | null;
  until: string | null;
  contentType: string | null;
}

/** The bounds of a period asked for, as [word, instant]: none when it is open. */
export function periodBounds(period: Period): Array<readonly ["since" | "until", string]> {
  return [["since", period.since] as const, ["until", period.until] as const].flatMap(
    ([word, at]) => (at === null ? [] : [[word, at] as const]),
  );
}

function periodText(period: Period, all: string): string {
  const asked = [
    ...periodBounds(period).map(([word, at]) => `${word} ${at}`),
    ...(period.contentType === null ? [] : [`content type ${period.contentType}`]),
  ];
  return asked.length === 0 ? all : `Labels ${asked.join(", ")}`;
}

/** What the report covers: the scope asked for and the decisions found. */
export function scopeLine(report: CalibrationReport): string {
  const { window } = report;
  const found =
    window.firstDecision === null
      ? "no reviewer labels found"
      : `decisions from ${window.firstDecision} to ${window.lastDecision ?? window.firstDecision}`;
  return `${periodText(window, "All labels")}: ${found}.`;
}

/** "+0.25" / "−0.10" for κ and ρ, "+25 pp" for agreement; "—" when either side has no value. */
function difference(without: Figure, shown: Figure, share: boolean): string {
  if (without.value === null || shown.value === null) return "—";
  const delta = shown.value - without.value;
  const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
  const size = Math.abs(delta);
  return share ? `${sign}${Number((size * 100).toFixed(1))} pp` : `${sign}${size.toFixed(2)}`;
}

export const COMPARISON_HEADERS = [
  "Criterion",
  "Compared",
  "Agreement without",
  "Agreement with",
  "Agreement Δ",
  "κ without",
  "κ with",
  "κ Δ",
  "ρ marked without",
  "ρ marked with",
  "ρ marked Δ",
] as const;

function comparisonCells(name: string, without: GroupFigures, shown: GroupFigures): string[] {
  return [
    name,
    String(without.counts.compared),
    formatShare(without.agreement),
    formatShare(shown.agreement),
    difference(without.agreement, shown.agreement, true),
    formatFigure(without.kappa),
    formatFigure(shown.kappa),
    difference(without.kappa, shown.kappa, false),
    formatFigure(without.spearmanMarked),
    formatFigure(shown.spearmanMarked),
    difference(without.spearmanMarked, shown.spearmanMarked, false),
  ];
}

/** Every criterion pooled first, then each with its content type (`typeName`: titles or ids). */
export function comparisonRows(
  comparison: RecordedComparison,
  typeName: (contentType: string) => string = (id) => id,
): string[][] {
  return [
    comparisonCells("all criteria", comparison.without, comparison.with),
    ...comparison.criteria.map((c) =>
      comparisonCells(`${criterionName(c)} · ${typeName(c.contentType)}`, c.without, c.with),
    ),
  ];
}

/** How many labels of the period were judged again, and why the others were not. */
export function replayedText(comparison: RecordedComparison): string {
  const { noContent, notInCatalog } = comparison.skipped;
  return (
    `${comparison.labels} in the period, ${comparison.replayed} judged again without and with ` +
    `examples (skipped: ${noContent} without kept content, ${notInCatalog} not judged by the ` +
    "model in this catalog)."
  );
}

/** When, on which labels, with which judge and catalog a comparison was measured. */
export function comparisonFacts(context: ComparisonContext, comparison: RecordedComparison) {
  return {
    measured: `Measured ${context.measuredAt} with ${measuredWith(context)}`,
    labels: `${periodText(context, "Every label")}: ${replayedText(comparison)}`,
  };
}

/** "ollama:judge, catalog budget version 1.0.0.": the judge and the catalog of a comparison. */
export function measuredWith(context: ComparisonContext): string {
  return `${context.model}, catalog ${context.catalog.id} version ${context.catalog.version}.`;
}

/*
 * Why κ is 0 beside a high agreement: κ counts only the agreement beyond what chance predicts,
 * and when (nearly) every label passes, chance alone predicts nearly all of it. Said in one line
 * under a table where such a row is.
 */
export interface KappaRow {
  name: string;
  table: AgreementTable;
  agreement: Figure;
  kappa: Figure;
}

/** κ this close to 0 reads as 0.00 (or −0.0x) in the tables. */
const KAPPA_NEAR_ZERO = 0.05;
const HIGH_AGREEMENT = 0.8;

function isChanceAgreement(row: KappaRow): boolean {
  const { kappa, agreement } = row;
  return (
    kappa.value !== null &&
    Math.abs(kappa.value) < KAPPA_NEAR_ZERO &&
    agreement.value !== null &&
    agreement.value >= HIGH_AGREEMENT
  );
}

export function kappaNote(rows: readonly KappaRow[]): string | undefined {
  const shown = rows.filter(isChanceAgreement);
  const first = shown[0];
  if (first === undefined || first.agreement.value === null) return undefined;
  const { table } = first;
  const [n, judge] = [tableSize(table), table.bothPass + table.judgeOnlyPass];
  const reviewers = table.bothPass + table.reviewerOnlyPass;
  const side = judge + reviewers >= n ? "passed" : "failed";
  const names = shown.map((row) => row.name).join(", ");
  return (
    "κ is 0 when the judge and the reviewers agree only as often as chance predicts from how " +
    `often each passes: here nearly every label ${side} (${names}: the judge passed ${judge} of ` +
    `${n}, the reviewers ${reviewers} of ${n}), so the ${formatPercent(first.agreement.value)} ` +
    "agreement says little about the judge."
  );
}
