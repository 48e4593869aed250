/**
 * JUnit XML of a blueprint run. A group that reaches the threshold counts as a whole: the points of
 * its deciding path pass, the other paths of a `should` group are <skipped> as not needed.
 */

import type {
  AlternativeGroupResult,
  BlueprintRun,
  CoverageResult,
  PointAssessment,
} from "../../blueprints/result.js";
import { shownScore, shownThreshold } from "../../scoring/shownScore.js";
import { oneLine, truncate } from "../../shortText.js";
import {
  type CaseBase,
  type JunitCase,
  type JunitSuite,
  judgedCase,
  problemCase,
  renderJunitSuites,
} from "./junit.js";

/** The coverage a point and a pair's average must reach when no --fail-under is given. */
const DEFAULT_COVERAGE_THRESHOLD = 0.5;

const NAME_LIMIT = 200;

function pointCase(point: PointAssessment, base: CaseBase, threshold: number): JunitCase {
  if (point.coverageExtent === null) {
    return judgedCase(base, { notJudged: "not assessed", why: point.error ?? "not assessed" });
  }
  if (point.coverageExtent >= threshold) return judgedCase(base, undefined);
  const scored = `coverage ${shownScore(point.coverageExtent, "decimal", threshold)} under the threshold ${shownThreshold(threshold)}`;
  return judgedCase(base, { scored, reasoning: point.reflection });
}

/**
 * Judged alone until its group reaches the threshold; then skipped on a path that was not needed.
 */
function groupPointCase(
  point: PointAssessment,
  base: CaseBase,
  threshold: number,
  groups: readonly AlternativeGroupResult[],
): JunitCase {
  const group = groups.find((g) => g.group === point.alternative?.group);
  if (group === undefined || group.score === null || group.score < threshold) {
    return pointCase(point, base, threshold);
  }
  const path = point.alternative?.path;
  if (group.block === "should_not" || path === group.decidingPath) {
    return { ...base, outcome: "passed" };
  }
  const met = `${shownScore(group.score)} by path ${group.decidingPath}`;
  return problemCase(
    base,
    "skipped",
    `not needed: alternative group ${group.group} is met (${met}); this point is on path ${path}`,
  );
}

/** An alternative group as one testcase: met when its deciding path reaches the threshold. */
function groupCase(group: AlternativeGroupResult, classname: string, threshold: number): JunitCase {
  const kind = group.block === "should" ? "alternatives" : "alternatives to avoid";
  const base = { name: `group ${group.group}: ${kind}`, classname, time: 0 };
  const paths = group.pathScores
    .map(
      (score, i) =>
        `path ${i + 1} ${score === null ? "not assessed" : shownScore(score, "decimal", threshold)}`,
    )
    .join(", ");
  if (group.score === null) return problemCase(base, "error", `not assessed: ${paths}`);
  if (group.score >= threshold) return { ...base, outcome: "passed" };
  const message = `coverage ${shownScore(group.score, "decimal", threshold)} under the threshold ${shownThreshold(threshold)} (${paths})`;
  return problemCase(base, "failure", message);
}

function overallCase(coverage: CoverageResult, classname: string, threshold: number): JunitCase {
  const base = { name: "overall", classname, time: 0 };
  const average = coverage.avgCoverageExtent;
  if (average === null) {
    const message = `no average coverage: ${oneLine(coverage.error ?? "no point was assessed")}`;
    return problemCase(base, "error", message);
  }
  const unassessed = coverage.pointAssessments.filter((p) => p.coverageExtent === null).length;
  const reasons: string[] = [];
  if (average < threshold) {
    reasons.push(
      `average coverage ${shownScore(average, "decimal", threshold)} under ${shownThreshold(threshold)}`,
    );
  }
  if (unassessed > 0) reasons.push(`${unassessed} points not assessed (never a pass)`);
  if (coverage.humanReviewRequired === true) {
    const why = (coverage.humanReviewReasons ?? []).join("; ");
    reasons.push(`held for human review${why === "" ? "" : `: ${oneLine(why)}`}`);
  }
  if (reasons.length === 0) return { ...base, outcome: "passed" };
  return problemCase(base, "failure", reasons.join("; "));
}

/** Whether a prompt × model pair passes the gate: an average at or above `threshold`, every point assessed, not held. */
export function coveragePasses(
  coverage: CoverageResult | { error: string },
  threshold: number,
): boolean {
  return (
    "pointAssessments" in coverage && overallCase(coverage, "", threshold).outcome === "passed"
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
    const base = { name: "answer", classname, time: 0 };
    const answer = problemCase(base, "error", `no coverage: ${oneLine(coverage.error)}`);
    return { name: `${promptId} × ${model}`, properties, cases: [answer] };
  }
  properties.push(["avgCoverageExtent", String(coverage.avgCoverageExtent ?? "none")]);
  const groups = coverage.alternativeGroups ?? [];
  const cases = coverage.pointAssessments.map((point, index) => {
    const name = `point ${index + 1}: ${truncate(oneLine(point.keyPointText), NAME_LIMIT)}`;
    const base = { name, classname, time: 0 };
    return point.alternative === undefined
      ? pointCase(point, base, threshold)
      : groupPointCase(point, base, threshold, groups);
  });
  cases.push(...groups.map((group) => groupCase(group, classname, threshold)));
  cases.push(overallCase(coverage, classname, threshold));
  return { name: `${promptId} × ${model}`, properties, cases };
}

export function renderBlueprintJunit(
  run: BlueprintRun,
  threshold = DEFAULT_COVERAGE_THRESHOLD,
): string {
  const suites = run.promptIds.flatMap((promptId) =>
    run.models.map((model) => pairSuite(run, promptId, model, threshold)),
  );
  return renderJunitSuites(suites, run.timestamp);
}
