/** How the calibration report's figures read, in its Markdown and HTML forms and on the page. */

import { type AgreementTable, type Figure, tableSize } from "../../calibration/figures.js";
import type {
  CalibrationReport,
  ComparisonContext,
  CriterionCalibration,
  Disagreement,
  GateFigures,
  GroupFigures,
  RecordedComparison,
  ThresholdPoint,
} from "../../calibration/reportModel.js";
import { MIN_LABELS_TO_APPLY } from "../../calibration/thresholds.js";

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

/**
 * "0.70 (85%) → 0.60 (90%)": agreement at the current threshold and at the best one; a best one
 * found on fewer labels than `calibrate --apply` needs says so.
 */
export function thresholdText(criterion: CriterionCalibration): string {
  if (criterion.sweep === null) return `${formatThreshold(criterion.threshold)} (${NOT_ENOUGH})`;
  const { current, best, compared } = criterion.sweep;
  if (best.threshold === current.threshold) return `${pointText(current)}, already the best`;
  const few = compared < MIN_LABELS_TO_APPLY ? ` on ${compared} labels, too few to apply` : "";
  return `${pointText(current)} → ${pointText(best)}${few}`;
}

/** "21 labels (5 marked, 16 accepted, 1 judge errors)". */
export function labelCountText(counts: GroupFigures["counts"]): string {
  const { labels, marked, accepted, judgeErrors } = counts;
  return `${labels} label${labels === 1 ? "" : "s"} (${marked} marked, ${accepted} accepted, ${judgeErrors} judge errors)`;
}

export function criterionName(criterion: { title: string; criterionId: string }): string {
  const title = criterion.title.trim();
  return title === "" || title === criterion.criterionId
    ? criterion.criterionId
    : `${title} (${criterion.criterionId})`;
}

/** A table column: its header and how a row's cell reads. */
type Column<T> = readonly [header: string, cell: (row: T) => string];

const headersOf = <T>(columns: readonly Column<T>[]) => columns.map(([header]) => header);
const cellsOf = <T>(columns: readonly Column<T>[], row: T) => columns.map(([, cell]) => cell(row));

const FIGURE_COLUMNS: readonly Column<GroupFigures>[] = [
  ["Labels", (f) => String(f.counts.labels)],
  ["Marked", (f) => String(f.counts.marked)],
  ["Accepted", (f) => String(f.counts.accepted)],
  ["Judge errors", (f) => String(f.counts.judgeErrors)],
  ["Agreement", (f) => formatShare(f.agreement)],
  ["κ", (f) => formatFigure(f.kappa)],
  ["ρ marked", (f) => formatFigure(f.spearmanMarked)],
  ["ρ all", (f) => formatFigure(f.spearmanAll)],
];

const GATE_COLUMNS: readonly Column<GateFigures>[] = [
  ["Decisions", (g) => String(g.decisions)],
  ["Approve", (g) => String(g.approve)],
  ["Revise", (g) => String(g.revise)],
  ["Edit", (g) => String(g.edit)],
  ["Judge errors", (g) => String(g.judgeErrors)],
  ["Agreement", (g) => formatShare(g.agreement)],
  ["κ", (g) => formatFigure(g.kappa)],
];

/** A row of a figure table: its cells, and its name and figures for the κ note. */
export type FigureRow = KappaRow & { cells: string[] };

const figureRow = (name: string, cells: string[], figures: Omit<KappaRow, "name">): FigureRow => ({
  ...figures,
  name,
  cells: [name, ...cells],
});

/**
 * The report's figure tables, as the Markdown report, the HTML report and the page show them:
 * every label, the gate, then each content type's criteria (`typeName`: titles or ids).
 */
export function reportTables(
  report: CalibrationReport,
  typeName: (contentType: string) => string = (id) => id,
): Array<{ heading: string; note?: string; headers: readonly string[]; rows: FigureRow[] }> {
  const gates = [{ contentType: "all", gate: report.gate }, ...report.contentTypes];
  return [
    {
      heading: "Every label",
      headers: ["Scope", ...headersOf(FIGURE_COLUMNS)],
      rows: [figureRow("every label", cellsOf(FIGURE_COLUMNS, report.overall), report.overall)],
    },
    {
      heading: "The gate: judge's pass against reviewer's approval",
      note: "Revise and edit count as the reviewer not passing the content.",
      headers: ["Content type", ...headersOf(GATE_COLUMNS)],
      rows: gates.map(({ contentType, gate }, index) =>
        figureRow(index === 0 ? "all" : typeName(contentType), cellsOf(GATE_COLUMNS, gate), gate),
      ),
    },
    ...report.contentTypes.map((group) => ({
      heading: `Content type: ${typeName(group.contentType)}`,
      ...(group.judgedWith.length === 0
        ? {}
        : { note: `Judged with ${group.judgedWith.join(", ")}.` }),
      headers: ["Criterion", ...headersOf(FIGURE_COLUMNS), "Threshold (agreement) → best"],
      rows: group.criteria.map((c) =>
        figureRow(
          criterionName(c),
          [...cellsOf(FIGURE_COLUMNS, c.figures), thresholdText(c)],
          c.figures,
        ),
      ),
    })),
  ];
}

const DISAGREEMENT_COLUMNS: readonly Column<Disagreement & { rank: number }>[] = [
  ["#", (d) => String(d.rank)],
  ["Content type", (d) => d.contentType],
  ["Criterion", (d) => criterionName(d)],
  ["Disagreed", (d) => `${d.disagreed} of ${d.compared}`],
  ["Rate", (d) => formatPercent(d.rate)],
  ["Judge too lenient", (d) => String(d.judgeTooLenient)],
  ["Judge too strict", (d) => String(d.judgeTooStrict)],
];

export const DISAGREEMENT_HEADERS = headersOf(DISAGREEMENT_COLUMNS);

export function disagreementRows(report: CalibrationReport): string[][] {
  return report.disagreements.map((d, index) =>
    cellsOf(DISAGREEMENT_COLUMNS, { ...d, rank: index + 1 }),
  );
}

type Period = Pick<ComparisonContext, "since" | "until" | "contentType">;

/** The bounds of a period asked for, as [word, instant]: none when it is open. */
export function periodBounds(period: Period): Array<readonly ["since" | "until", string]> {
  return [["since", period.since] as const, ["until", period.until] as const].flatMap(
    ([word, at]) => (at === null ? [] : [[word, at] as const]),
  );
}

export function periodText(period: Period, all: string): string {
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

/** A figure without and with examples, and the difference: three columns of the comparison. */
function comparedColumns(
  name: string,
  figure: (figures: GroupFigures) => Figure,
  share: boolean,
): Column<{ without: GroupFigures; with: GroupFigures }>[] {
  const show = share ? formatShare : formatFigure;
  return [
    [`${name} without`, (pair) => show(figure(pair.without))],
    [`${name} with`, (pair) => show(figure(pair.with))],
    [`${name} Δ`, (pair) => difference(figure(pair.without), figure(pair.with), share)],
  ];
}

const COMPARISON_COLUMNS = [
  ["Compared", (pair) => String(pair.without.counts.compared)],
  ...comparedColumns("Agreement", (f) => f.agreement, true),
  ...comparedColumns("κ", (f) => f.kappa, false),
  ...comparedColumns("ρ marked", (f) => f.spearmanMarked, false),
] satisfies Column<{ without: GroupFigures; with: GroupFigures }>[];

export const COMPARISON_HEADERS = ["Criterion", ...headersOf(COMPARISON_COLUMNS)];

/** Every criterion pooled first, then each with its content type (`typeName`: titles or ids). */
export function comparisonRows(
  comparison: RecordedComparison,
  typeName: (contentType: string) => string = (id) => id,
): string[][] {
  return [
    ["all criteria", ...cellsOf(COMPARISON_COLUMNS, comparison)],
    ...comparison.criteria.map((c) => [
      `${criterionName(c)} · ${typeName(c.contentType)}`,
      ...cellsOf(COMPARISON_COLUMNS, c),
    ]),
  ];
}

/** How many labels of the period were judged again, and why the others were not. */
export function replayedText(comparison: RecordedComparison): string {
  const { noContent, notInCatalog } = comparison.skipped;
  const errors = comparison.without.counts.judgeErrors;
  return (
    `${comparison.labels} in the period, ${comparison.replayed} judged again without and with ` +
    `examples (skipped: ${noContent} without kept content, ${notInCatalog} not judged by the ` +
    `model in this catalog); ${errors} judge error${errors === 1 ? "" : "s"} in either arm, ` +
    "in neither arm's figures."
  );
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
