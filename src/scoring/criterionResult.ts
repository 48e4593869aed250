import { type Catalog, type Criterion, levelsOf } from "../criteria/model.js";
import { inconsistent, meetsThreshold } from "./consistency.js";
import { UnknownLevelError } from "./errors.js";
import type { CriterionOutcome, CriterionResult } from "./result.js";
import { roundScore, scaleInvalid } from "./scale.js";

/** The 0–1 threshold a criterion is met at: its own, else the catalog's. */
export function thresholdOf(
  criterion: Criterion,
  catalog: Pick<Catalog, "passingThreshold">,
): number {
  return criterion.passingThreshold ?? catalog.passingThreshold;
}

/** The outcome of a criterion that could not be evaluated: no score, never a zero or a pass. */
export function notEvaluatedOutcome(judgeError: string, reasoning = ""): CriterionOutcome {
  return {
    evaluated: false,
    score: null,
    native: null,
    reasoning,
    hits: [],
    misses: [],
    evidence: [],
    judgeError,
  };
}

function correctableScale(criterion: Criterion): Pick<CriterionResult, "scale" | "levels"> {
  const { method } = criterion;
  if (method.kind === "score") {
    const { min, max, integer } = method.scale;
    return { scale: { min, max, integer } };
  }
  const levels = levelsOf(method);
  if (levels === undefined) return {};
  return { levels: levels.map(({ id, label, score }) => ({ id, label, score })) };
}

/** One criterion's result from its outcome: `met` against its threshold; a knockout is always critical. */
export function makeCriterionResult(
  criterion: Criterion,
  outcome: CriterionOutcome,
  catalog: Pick<Catalog, "id" | "passingThreshold">,
): CriterionResult {
  const at = (field: string) => ({ catalogId: catalog.id, criterionId: criterion.id, field });
  const threshold = thresholdOf(criterion, catalog);
  const base = {
    id: criterion.id,
    title: criterion.title,
    method: criterion.method.kind,
    weight: criterion.weight,
    critical: criterion.critical || criterion.knockout,
    knockout: criterion.knockout,
    required: criterion.required,
    threshold,
    reasoning: outcome.reasoning,
    hits: outcome.hits ?? [],
    misses: outcome.misses ?? [],
    evidence: outcome.evidence ?? [],
    ...(criterion.citation !== undefined ? { citation: criterion.citation } : {}),
    ...correctableScale(criterion),
  };

  if (!outcome.evaluated) {
    if (outcome.score !== null) {
      throw inconsistent(
        `outcome is not evaluated but carries a score (${outcome.score})`,
        at("score"),
      );
    }
    return {
      ...base,
      evaluated: false,
      score: null,
      native: null,
      met: null,
      judgeError: outcome.judgeError ?? "not evaluated (no reason given)",
    };
  }

  if (outcome.score === null) {
    throw inconsistent("outcome is evaluated but has no score", at("score"));
  }
  if (!Number.isFinite(outcome.score) || outcome.score < 0 || outcome.score > 1) {
    throw scaleInvalid(`score must be within 0–1, got ${outcome.score}`, at("score"));
  }
  if (outcome.level !== undefined) {
    const levels = levelsOf(criterion.method);
    if (levels === undefined) {
      throw inconsistent(
        `level '${outcome.level}' given, but a ${criterion.method.kind} criterion has no levels`,
        at("level"),
      );
    }
    if (!levels.some((l) => l.id === outcome.level)) {
      throw new UnknownLevelError(
        outcome.level,
        levels.map((l) => l.id),
        at("level"),
      );
    }
  }
  const score = roundScore(outcome.score);
  return {
    ...base,
    evaluated: true,
    score,
    native: outcome.native,
    ...(outcome.level !== undefined ? { level: outcome.level } : {}),
    met: meetsThreshold(score, threshold),
    ...(outcome.judgeError !== undefined ? { judgeError: outcome.judgeError } : {}),
    ...(outcome.scoreMethod !== undefined ? { scoreMethod: outcome.scoreMethod } : {}),
    ...(outcome.scoreMethodReason !== undefined
      ? { scoreMethodReason: outcome.scoreMethodReason }
      : {}),
  };
}
