import { encode as encodeToon } from "@toon-format/toon";
import type { CriterionResult, EvaluationResult } from "./result.js";

interface ResultsToonRow {
  id: string;
  /** pass/fail for checks, the level for level criteria, `error` when not evaluated, else null. */
  result: string | null;
  /** The native value for scored criteria (4 on 1–5), the 0–1 score for levels, null for checks. */
  score: number | null;
  /** The judge's reasoning, or why the criterion could not be evaluated. */
  reasoning: string;
}

function rowOf(criterion: CriterionResult): ResultsToonRow {
  const row = (result: string | null, score: number | null, reasoning = criterion.reasoning) => ({
    id: criterion.id,
    result,
    score,
    reasoning,
  });
  if (!criterion.evaluated || criterion.score === null) {
    return row("error", null, criterion.judgeError ?? criterion.reasoning);
  }
  const { native } = criterion;
  if (criterion.method === "check") {
    return row(typeof native === "string" ? native : criterion.met ? "pass" : "fail", null);
  }
  if (typeof native === "number") return row(null, native);
  return row(criterion.level ?? native, criterion.score);
}

/**
 * The plain object that {@link encodeResultsToon} writes, for comparison with other formats: the
 * summary's total is the native total when there is one, its status the funding status if any.
 */
export function resultsToonDocument(result: EvaluationResult) {
  return {
    results: result.criteria.map(rowOf),
    summary: {
      total_score: result.nativeTotal ?? result.overallScore,
      status: result.status ?? result.verdict,
    },
  };
}

/** A result as a TOON results document: `results` {id,result,score,reasoning} and `summary`. */
export function encodeResultsToon(result: EvaluationResult): string {
  return encodeToon(resultsToonDocument(result));
}
