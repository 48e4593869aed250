/** A prompt's coverage from one answer's evaluation; a point not assessed is null, never a zero. */
import type { CriterionResult, EvaluationResult } from "../scoring/result.js";
import type { PreparedPrompt } from "./blueprint.js";
import type { PlanItem } from "./pointPlan.js";
import type { AlternativeGroupResult, CoverageResult, PointAssessment } from "./result.js";

function keyPointText(criterion: CriterionResult, prompt: PreparedPrompt, index: number): string {
  const method = prompt.catalog.criteria[index]?.method;
  return method?.kind === "point" ? method.text : criterion.title;
}

function formatted(value: number): string {
  return String(Number(value.toFixed(4)));
}

function assessmentOf(
  result: CriterionResult,
  prompt: PreparedPrompt,
  index: number,
): PointAssessment {
  const multiplier = prompt.multipliers[index] ?? 1;
  const place = prompt.plan.placement[index];
  const inverted = place?.block === "should_not";
  const measured = result.evaluated ? result.score : null;
  const assessment: PointAssessment = {
    keyPointText: keyPointText(result, prompt, index),
    coverageExtent: measured === null || !inverted ? measured : 1 - measured,
    reflection:
      inverted && measured !== null
        ? `Should not be there: measured ${formatted(measured)}, counts ${formatted(1 - measured)}. ${result.reasoning}`
        : result.reasoning,
    multiplier,
  };
  if (result.citation !== undefined) assessment.citation = result.citation;
  if (!result.evaluated) assessment.error = result.judgeError ?? "not evaluated";
  if (inverted) assessment.inverted = true;
  if (place?.group !== undefined && place.path !== undefined) {
    assessment.alternative = { group: place.group, path: place.path };
  }
  return assessment;
}

function weightedAverage(
  scored: ReadonlyArray<{ score: number | null; weight: number }>,
): number | null {
  let weighted = 0;
  let total = 0;
  for (const { score, weight } of scored) {
    if (score === null) continue;
    weighted += score * weight;
    total += weight;
  }
  return total > 0 ? weighted / total : null;
}

function pathScore(
  indexes: readonly number[],
  assessments: readonly (PointAssessment | undefined)[],
) {
  const points = indexes.map((i) => assessments[i]);
  if (points.some((p) => p === undefined || p.coverageExtent === null)) return null;
  return weightedAverage(
    points.map((p) => ({ score: p?.coverageExtent ?? null, weight: p?.multiplier ?? 0 })),
  );
}

function groupResult(
  item: Extract<PlanItem, { kind: "alternatives" }>,
  assessments: readonly (PointAssessment | undefined)[],
): AlternativeGroupResult {
  const pathScores = item.paths.map((indexes) => pathScore(indexes, assessments));
  const known = pathScores.every((score) => score !== null);
  const pick = item.block === "should" ? Math.max : Math.min;
  const score = known ? pick(...(pathScores as number[])) : null;
  return {
    group: item.group,
    block: item.block,
    multiplier: item.multiplier,
    pathScores,
    decidingPath: score === null ? null : pathScores.indexOf(score) + 1,
    score,
  };
}

export function coverageOf(result: EvaluationResult, prompt: PreparedPrompt): CoverageResult {
  const byId = new Map(result.criteria.map((c) => [c.id, c]));
  const flat = prompt.catalog.criteria.map((criterion, index) => {
    const found = byId.get(criterion.id);
    return found === undefined ? undefined : assessmentOf(found, prompt, index);
  });
  const pointAssessments = flat.filter((a): a is PointAssessment => a !== undefined);
  const groups: AlternativeGroupResult[] = [];
  const scored = prompt.plan.items.map((item) => {
    if (item.kind === "point") {
      const assessment = flat[item.index];
      return { score: assessment?.coverageExtent ?? null, weight: assessment?.multiplier ?? 0 };
    }
    const group = groupResult(item, flat);
    groups.push(group);
    return { score: group.score, weight: item.multiplier };
  });
  const coverage: CoverageResult = {
    keyPointsCount: pointAssessments.length,
    avgCoverageExtent: weightedAverage(scored),
    pointAssessments,
  };
  if (groups.length > 0) coverage.alternativeGroups = groups;
  const unjudged = pointAssessments.filter((a) => a.error !== undefined).length;
  if (unjudged > 0) {
    coverage.error = `${unjudged} of ${pointAssessments.length} points could not be assessed`;
  }
  if (result.humanReviewRequired === true) {
    coverage.humanReviewRequired = true;
    coverage.humanReviewReasons = result.humanReviewReasons ?? [];
  }
  return coverage;
}
