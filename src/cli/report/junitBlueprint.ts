/**
 * JUnit XML of a blueprint run: one testsuite per prompt × model, one testcase per point and one
 * testcase "overall" (the average coverage). A point or an average under the threshold
 * (--fail-under, else 0.5) is a <failure>; a point the judge could not assess, or a candidate that
 * could not answer, is an <error>, never a pass.
 */
import type { BlueprintRun, CoverageResult, PointAssessment } from "../../blueprints/result.js";
import { type JunitCase, type JunitSuite, renderJunitSuites } from "./junit.js";
import { formatScore, oneLine, truncate } from "./text.js";

/** The coverage a point and a pair's average must reach when no --fail-under is given. */
export const DEFAULT_COVERAGE_THRESHOLD = 0.5;

const MESSAGE_LIMIT = 500;
const BODY_LIMIT = 4000;
const NAME_LIMIT = 200;

function pointCase(
  point: PointAssessment,
  index: number,
  classname: string,
  threshold: number,
): JunitCase {
  const name = `point ${index + 1}: ${truncate(oneLine(point.keyPointText), NAME_LIMIT)}`;
  const base = { name, classname, time: 0 };
  if (point.coverageExtent === null) {
    const why = point.error ?? "not assessed";
    return {
      ...base,
      outcome: "error",
      message: truncate(`not assessed: ${oneLine(why)}`, MESSAGE_LIMIT),
      body: truncate(why, BODY_LIMIT),
    };
  }
  if (point.coverageExtent >= threshold) return { ...base, outcome: "passed" };
  const scored = `coverage ${formatScore(point.coverageExtent)} under the threshold ${formatScore(threshold)}`;
  return {
    ...base,
    outcome: "failure",
    message: truncate(`${scored}: ${oneLine(point.reflection)}`, MESSAGE_LIMIT),
    body: truncate(`${scored}\n\n${point.reflection}`, BODY_LIMIT),
  };
}

function overallCase(coverage: CoverageResult, classname: string, threshold: number): JunitCase {
  const base = { name: "overall", classname, time: 0 };
  const average = coverage.avgCoverageExtent;
  if (average === null) {
    const message = `no average coverage: ${oneLine(coverage.error ?? "no point was assessed")}`;
    return { ...base, outcome: "error", message: truncate(message, MESSAGE_LIMIT) };
  }
  const unassessed = coverage.pointAssessments.filter((p) => p.coverageExtent === null).length;
  const reasons: string[] = [];
  if (average < threshold) {
    reasons.push(`average coverage ${formatScore(average)} under ${formatScore(threshold)}`);
  }
  if (unassessed > 0) reasons.push(`${unassessed} points not assessed (never a pass)`);
  if (reasons.length === 0) return { ...base, outcome: "passed" };
  return { ...base, outcome: "failure", message: truncate(reasons.join("; "), MESSAGE_LIMIT) };
}

/** Whether a prompt × model pair passes the gate: an average at or above `threshold`, every point assessed. */
export function coveragePasses(
  coverage: CoverageResult | { error: string },
  threshold: number,
): boolean {
  if (!("pointAssessments" in coverage)) return false;
  const average = coverage.avgCoverageExtent;
  return (
    average !== null &&
    average >= threshold &&
    coverage.pointAssessments.every((p) => p.coverageExtent !== null)
  );
}

function pairSuite(
  run: BlueprintRun,
  promptId: string,
  model: string,
  threshold: number,
): JunitSuite {
  const classname = `${run.configId}.${promptId}`;
  const coverage = run.evaluationResults.llmCoverageScores[promptId]?.[model] ?? {
    error: "no result for this prompt and model",
  };
  const properties: Array<readonly [string, string]> = [
    ["prompt", promptId],
    ["model", model],
    ["judge", run.judge.model],
    ["threshold", String(threshold)],
  ];
  if (!("pointAssessments" in coverage)) {
    const message = truncate(`no answer: ${oneLine(coverage.error)}`, MESSAGE_LIMIT);
    const answer: JunitCase = { name: "answer", classname, time: 0, outcome: "error", message };
    return { name: `${promptId} × ${model}`, properties, cases: [answer] };
  }
  properties.push(["avgCoverageExtent", String(coverage.avgCoverageExtent ?? "none")]);
  const cases = coverage.pointAssessments.map((point, index) =>
    pointCase(point, index, classname, threshold),
  );
  cases.push(overallCase(coverage, classname, threshold));
  return { name: `${promptId} × ${model}`, properties, cases };
}

/** `blueprint run --format junit`: one testsuite per prompt × model. */
export function renderBlueprintJunit(
  run: BlueprintRun,
  threshold = DEFAULT_COVERAGE_THRESHOLD,
): string {
  const suites = run.promptIds.flatMap((promptId) =>
    run.models.map((model) => pairSuite(run, promptId, model, threshold)),
  );
  return renderJunitSuites(suites, run.timestamp.replace(/\.\d+Z$/, "").replace(/Z$/, ""));
}
