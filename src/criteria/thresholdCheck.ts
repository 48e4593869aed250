import { roundForMessage, scoredCriteria, weightSum } from "./catalogWeights.js";
import { type Catalog, type Criterion, levelsOf } from "./model.js";
import { criterionPath, type ValidationFinding } from "./validationFinding.js";

function maxScoreOf(c: Criterion): number {
  const levels = levelsOf(c.method);
  return levels === undefined ? 1 : Math.max(...levels.map((l) => l.score));
}

/** The worst score a criterion can get: a threshold at or below it passes every answer. */
export function minScoreOf(c: Criterion): number {
  const levels = levelsOf(c.method);
  return levels === undefined ? 0 : Math.min(...levels.map((l) => l.score));
}

/** Flags trivial or unreachable passing thresholds (catalog, criterion and status rules). */
export function checkThresholds(catalog: Catalog): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  const scored = scoredCriteria(catalog);
  const sum = weightSum(scored);
  if (scored.length > 0 && sum > 0 && Number.isFinite(sum)) {
    const best = scored.reduce((acc, c) => acc + c.weight * maxScoreOf(c), 0) / sum;
    const worst = scored.reduce((acc, c) => acc + c.weight * minScoreOf(c), 0) / sum;
    const t = catalog.passingThreshold;
    if (t > best + 1e-9) {
      findings.push({
        severity: "error",
        check: "threshold_reasonableness",
        message: `passing threshold ${t} is unreachable: the best possible weighted score is ${roundForMessage(best)}`,
        path: ["passingThreshold"],
      });
    } else if (t <= worst + 1e-9) {
      findings.push({
        severity: "error",
        check: "threshold_reasonableness",
        message: `passing threshold ${t} is trivial: even the worst possible weighted score (${roundForMessage(worst)}) reaches it`,
        path: ["passingThreshold"],
      });
    } else if (t >= 0.95) {
      findings.push({
        severity: "warning",
        check: "threshold_reasonableness",
        message: `passing threshold ${t} is very high: almost nothing will pass`,
        path: ["passingThreshold"],
      });
    } else if (t < 0.3) {
      findings.push({
        severity: "warning",
        check: "threshold_reasonableness",
        message: `passing threshold ${t} is very low: weak content will pass`,
        path: ["passingThreshold"],
      });
    }
  }
  for (const c of catalog.criteria) {
    const t = c.passingThreshold;
    if (t === undefined) continue;
    const unreachable = t > maxScoreOf(c) + 1e-9;
    if (unreachable || t <= minScoreOf(c) + 1e-9) {
      findings.push({
        severity: "error",
        check: "threshold_reasonableness",
        message: unreachable
          ? `criterion passing threshold ${t} is unreachable: its best score is ${maxScoreOf(c)}`
          : `criterion passing threshold ${t} is trivial: even its worst score (${minScoreOf(c)}) reaches it`,
        path: criterionPath(catalog, c, "passingThreshold"),
      });
    }
  }
  const rules = catalog.statusRules;
  if (rules !== undefined) {
    const { min, max } = rules.scale;
    if (rules.fundable > max || rules.fundable <= min) {
      findings.push({
        severity: "error",
        check: "threshold_reasonableness",
        message: `fundable threshold ${rules.fundable} must lie above ${min} and at most ${max} (the status scale)`,
        path: ["statusRules", "fundable"],
      });
    }
  }
  return findings;
}
