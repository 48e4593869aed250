/** `evalgate catalog validate` and `evalgate catalog convert`. */

import { resolve } from "node:path";
import { encode as encodeToon } from "@toon-format/toon";
import {
  type CatalogError,
  formatCatalogPath,
  isCatalogError,
  isCatalogNotFoundError,
} from "../../criteria/errors.js";
import { loadCatalog } from "../../criteria/load.js";
import { type Catalog, isLlmMethod } from "../../criteria/model.js";
import type { ValidationFinding } from "../../criteria/validate.js";
import type { CliContext } from "../context.js";
import { displayPath, EXIT_FAILED, EXIT_OK } from "../context.js";
import { linkPolicyOf } from "../inputFiles.js";
import { writeOutput } from "../outputFile.js";
import { padTo } from "../report/summary.js";

/** A finding as printed: the meta-rubric's, or the loader's own (check "load"). */
interface PrintedFinding {
  severity: ValidationFinding["severity"];
  check: string;
  message: string;
  location: string;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function printFindings(context: CliContext, findings: readonly PrintedFinding[]): void {
  const checkWidth = Math.max(0, ...findings.map((f) => f.check.length));
  for (const finding of findings) {
    context.stdout.write(
      `  ${padTo(finding.severity, 7)}  ${padTo(finding.check, checkWidth)}  ${finding.message}  (at ${finding.location})\n`,
    );
  }
}

/** Where a CatalogError points: `file:line:column ($.path)`. */
function errorLocation(error: CatalogError, cwd: string): string {
  let where = displayPath(error.source, cwd);
  if (error.line !== undefined) {
    where += `:${error.line}`;
    if (error.column !== undefined) where += `:${error.column}`;
  }
  if (error.path !== undefined && error.path.length > 0) {
    where += ` ${formatCatalogPath(error.path)}`;
  }
  return where;
}

function printedFinding(finding: ValidationFinding, path: string): PrintedFinding {
  return {
    severity: finding.severity,
    check: finding.check,
    message: finding.message,
    location: `${path}${finding.line === undefined ? "" : `:${finding.line}`} ${formatCatalogPath(finding.path)}`,
  };
}

/** The meta-rubric's findings (never errors: the loader refuses those), then loading's notes. */
function findingsOf(
  catalog: Catalog,
  asWritten: readonly ValidationFinding[],
  path: string,
): PrintedFinding[] {
  const findings = asWritten.map((f) => printedFinding(f, path));
  const seen = new Set(findings.map((f) => f.message));
  for (const warning of catalog.warnings) {
    if (!seen.has(warning)) {
      findings.push({ severity: "warning", check: "load", message: warning, location: path });
    }
  }
  return findings;
}

interface ValidationReport {
  file: string;
  valid: boolean;
  catalog: {
    id: string;
    name: string;
    version: string;
    criteria: number;
    llmCriteria: number;
  } | null;
  findings: PrintedFinding[];
}

function countOf(report: ValidationReport, severity: PrintedFinding["severity"]): number {
  return report.findings.filter((f) => f.severity === severity).length;
}

function printReport(context: CliContext, report: ValidationReport): void {
  const { catalog, file } = report;
  if (catalog === null) {
    context.stdout.write(`${file}: invalid catalog\n`);
    printFindings(context, report.findings);
    context.stdout.write(`invalid: ${plural(countOf(report, "error"), "error")}\n`);
    return;
  }
  context.stdout.write(
    `${file}: catalog ${catalog.id} "${catalog.name}" version ${catalog.version}, ` +
      `${catalog.criteria} ${catalog.criteria === 1 ? "criterion" : "criteria"} ` +
      `(${catalog.llmCriteria} judged by the model, ${catalog.criteria - catalog.llmCriteria} deterministic)\n`,
  );
  printFindings(context, report.findings);
  const errors = countOf(report, "error");
  context.stdout.write(
    `${errors === 0 ? "valid" : "invalid"}: ${plural(errors, "error")}, ${plural(countOf(report, "warning"), "warning")}, ${plural(countOf(report, "info"), "note")}\n`,
  );
}

/** The refusal in the words every command uses, then the meta-rubric's other errors. */
function refusalReport(
  path: string,
  error: CatalogError,
  asWritten: readonly ValidationFinding[],
  cwd: string,
): ValidationReport {
  const [first, ...more] = asWritten.filter((f) => f.severity === "error");
  const refusal: PrintedFinding = {
    severity: "error",
    check: first?.check ?? "load",
    message: error.detail,
    location: errorLocation(error, cwd),
  };
  const findings = [refusal, ...more.map((f) => printedFinding(f, path))];
  return { file: path, valid: false, catalog: null, findings };
}

/** Loads the catalog as every command does: what it calls invalid, they refuse alike. */
export async function runCatalogValidate(
  path: string,
  options: { json?: boolean },
  context: CliContext,
): Promise<void> {
  let asWritten: readonly ValidationFinding[] = [];
  const onFindings = (findings: readonly ValidationFinding[]) => {
    asWritten = findings;
  };
  let report: ValidationReport;
  try {
    const catalog = await loadCatalog(resolve(context.cwd, path), {
      onFindings,
      ...linkPolicyOf(context.env),
    });
    const findings = findingsOf(catalog, asWritten, path);
    const llmCriteria = catalog.criteria.filter((c) => isLlmMethod(c.method)).length;
    const { id, name, version } = catalog;
    const summary = { id, name, version, criteria: catalog.criteria.length, llmCriteria };
    const valid = !findings.some((f) => f.severity === "error");
    report = { file: path, valid, catalog: summary, findings };
  } catch (error) {
    // A missing file cannot be validated at all: that is an error of the command (exit 2).
    if (isCatalogNotFoundError(error) || !isCatalogError(error)) throw error;
    report = refusalReport(path, error, asWritten, context.cwd);
  }
  if (options.json === true) context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else printReport(context, report);
  context.exitCode = report.valid ? EXIT_OK : EXIT_FAILED;
}

type ConvertFormat = "toon" | "json";

/** Without what loading adds (`source`, `warnings`): it loads back to an equal catalog. */
function convertCatalog(catalog: Catalog, to: ConvertFormat): string {
  const { source: _source, warnings: _warnings, ...document } = catalog;
  // Optional fields that are absent are left out (TOON would write `undefined` as null).
  const plain: unknown = JSON.parse(JSON.stringify(document));
  return to === "json" ? `${JSON.stringify(plain, null, 2)}\n` : `${encodeToon(plain)}\n`;
}

export async function runCatalogConvert(
  path: string,
  options: { to: ConvertFormat; out?: string },
  context: CliContext,
): Promise<void> {
  const catalog = await loadCatalog(resolve(context.cwd, path), linkPolicyOf(context.env));
  const text = convertCatalog(catalog, options.to);
  await writeOutput(text, options.out, `${catalog.id} as ${options.to}`, context);
  for (const warning of catalog.warnings) context.stderr.write(`warning: ${warning}\n`);
}
