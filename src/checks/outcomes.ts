import type { Level } from "../criteria/model.js";
import type { CriterionOutcome } from "../scoring/result.js";

/** The highest-scoring level (the first of equals). */
export function highestLevel(levels: readonly Level[]): Level | undefined {
  return levels.reduce<Level | undefined>(
    (best, level) => (best === undefined || level.score > best.score ? level : best),
    undefined,
  );
}

/** The lowest-scoring level (the first of equals). */
export function lowestLevel(levels: readonly Level[]): Level | undefined {
  return levels.reduce<Level | undefined>(
    (worst, level) => (worst === undefined || level.score < worst.score ? level : worst),
    undefined,
  );
}

/** A criterion the check could not score: neither a pass nor a zero. */
export function notEvaluated(
  reasoning: string,
  judgeError: string,
  evidence: string[] = [],
  level?: string,
): CriterionOutcome {
  return {
    evaluated: false,
    score: null,
    native: null,
    ...(level === undefined ? {} : { level }),
    reasoning,
    hits: [],
    misses: [],
    evidence,
    judgeError,
  };
}

/** A scored criterion; `level` when the score is one of its levels. */
export function evaluated(
  score: number,
  native: number | string,
  reasoning: string,
  evidence: string[],
  level?: Level,
  misses: string[] = [],
): CriterionOutcome {
  return {
    evaluated: true,
    score,
    native,
    ...(level === undefined ? {} : { level: level.id }),
    reasoning,
    hits: [],
    misses,
    evidence,
  };
}

/**
 * The outcome of a yes/no check: the highest level when it holds and the lowest when not, or
 * without levels 1 ("pass") and 0 ("fail").
 */
export function yesNoOutcome(
  holds: boolean,
  levels: readonly Level[] | undefined,
  reasoning: string,
  evidence: string[],
  misses: string[] = [],
): CriterionOutcome {
  const level =
    levels === undefined ? undefined : holds ? highestLevel(levels) : lowestLevel(levels);
  if (level !== undefined) {
    return evaluated(level.score, level.id, reasoning, evidence, level, misses);
  }
  return evaluated(holds ? 1 : 0, holds ? "pass" : "fail", reasoning, evidence, undefined, misses);
}
