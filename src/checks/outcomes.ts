import type { Level } from "../criteria/model.js";
import { notEvaluatedOutcome } from "../scoring/criterionResult.js";
import type { CriterionOutcome } from "../scoring/result.js";

/** The highest (or lowest) scoring level, the first of equals. */
function extremeLevel(levels: readonly Level[], highest: boolean): Level | undefined {
  return levels.reduce<Level | undefined>((found, level) => {
    if (found === undefined) return level;
    return (highest ? level.score > found.score : level.score < found.score) ? level : found;
  }, undefined);
}

/** Neither a pass nor a zero. */
export function notEvaluated(
  reasoning: string,
  judgeError: string,
  evidence: string[] = [],
  level?: string,
): CriterionOutcome {
  const outcome = { ...notEvaluatedOutcome(judgeError, reasoning), evidence };
  return level === undefined ? outcome : { ...outcome, level };
}

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

/** The highest level when it holds and the lowest when not; without levels 1 and 0. */
export function yesNoOutcome(
  holds: boolean,
  levels: readonly Level[] | undefined,
  reasoning: string,
  evidence: string[],
  misses: string[] = [],
): CriterionOutcome {
  const level = levels === undefined ? undefined : extremeLevel(levels, holds);
  if (level !== undefined) {
    return evaluated(level.score, level.id, reasoning, evidence, level, misses);
  }
  return evaluated(holds ? 1 : 0, holds ? "pass" : "fail", reasoning, evidence, undefined, misses);
}
