/**
 * An EvaluationResult as `{ key, score, comment }` results. What could not be evaluated has
 * `score: null` and says why: LangSmith records that as feedback, a thrown error not at all.
 */

import { EvaluationError } from "../engine/errors.js";
import { isEvalgateError } from "../errors.js";
import { redactSecretText } from "../redact.js";
import type { CriterionResult, EvaluationResult } from "../scoring/result.js";
import { shownScore, shownThreshold } from "../scoring/shownScore.js";

/** One result, as LangSmith records it as feedback. */
export interface EvaluatorResult {
  key: string;
  /** 0–1; null when it could not be evaluated. */
  score: number | null;
  comment: string;
  metadata?: Record<string, unknown>;
}

export interface ResultKeys {
  criteria: ReadonlyArray<{ id: string; key: string }>;
  overall: string;
}

function criterionComment(c: CriterionResult): string {
  if (!c.evaluated || c.score === null) {
    return `Not evaluated: ${c.judgeError ?? "no usable answer"}`;
  }
  // A native value that is the score itself (kept to 10 digits there) is not repeated.
  const same = typeof c.native === "number" && Math.abs(c.native - c.score) < 1e-9;
  const native = c.native === null || same ? "" : ` (${String(c.native)})`;
  const met = c.met ? "met" : "not met";
  return `${c.title}: ${shownScore(c.score, "decimal", c.threshold)}${native}, ${met} at ${shownThreshold(c.threshold)}. ${c.reasoning}`;
}

function criterionResult(key: string, c: CriterionResult): EvaluatorResult {
  const evaluated = c.evaluated && c.score !== null;
  return {
    key,
    score: evaluated ? c.score : null,
    comment: criterionComment(c),
    metadata: {
      criterion: c.id,
      title: c.title,
      method: c.method,
      evaluated,
      native: c.native,
      met: c.met,
      threshold: c.threshold,
    },
  };
}

function overallComment(result: EvaluationResult): string {
  const count = result.criteria.length;
  const review = result.humanReviewRequired
    ? ` A human must review it: ${(result.humanReviewReasons ?? []).join("; ").replace(/\.$/, "")}.`
    : "";
  const left = result.notEvaluated.length;
  if (left > 0) {
    // With every criterion left out there is no score over the others, not a zero.
    const which =
      left < count
        ? `${left} of ${count} criteria`
        : count === 1
          ? "the criterion"
          : `all ${count} criteria`;
    const others =
      left < count ? `; the score over the others was ${shownScore(result.overallScore)}` : "";
    return `Not evaluated: ${which} could not be judged (${result.notEvaluated.join(", ")})${others}.${review}`;
  }
  const status = result.status === undefined ? "" : `, ${result.status}`;
  const outcome = result.passed ? "passed" : "did not pass";
  return `${result.verdict}, ${outcome}${status}.${review} ${result.feedback}`.trim();
}

function overallResult(key: string, result: EvaluationResult): EvaluatorResult {
  const complete = result.notEvaluated.length === 0;
  return {
    key,
    score: complete ? result.overallScore : null,
    comment: overallComment(result),
    metadata: {
      passed: result.passed,
      verdict: result.verdict,
      ...(result.status === undefined ? {} : { status: result.status }),
      scoreOverEvaluated:
        result.notEvaluated.length < result.criteria.length ? result.overallScore : null,
      notEvaluated: result.notEvaluated,
      humanReviewRequired: result.humanReviewRequired === true,
      catalog: result.catalog.id,
      model: result.model,
    },
  };
}

export function resultsOf(keys: ResultKeys, result: EvaluationResult): EvaluatorResult[] {
  const byId = new Map(result.criteria.map((c) => [c.id, c]));
  const criteria = keys.criteria.map(({ id, key }) => {
    const found = byId.get(id);
    return found === undefined
      ? { key, score: null, comment: `Not evaluated: no result for criterion ${id}` }
      : criterionResult(key, found);
  });
  return [...criteria, overallResult(keys.overall, result)];
}

/** Each criterion's key and the overall one: `keyPrefix` before each, `overallKey` its own. */
export function resultKeys(
  criteria: ReadonlyArray<{ id: string }>,
  options: { keyPrefix?: string; overallKey?: string },
): ResultKeys {
  const prefix = options.keyPrefix ?? "";
  const overallKey = options.overallKey ?? "overall";
  if (overallKey.trim() === "") {
    throw new EvaluationError("input", "invalid evaluator option overallKey: it is empty");
  }
  const keys = criteria.map((c) => ({ id: c.id, key: `${prefix}${c.id}` }));
  const overall = `${prefix}${overallKey}`;
  if (keys.some((c) => c.key === overall)) {
    throw new EvaluationError(
      "input",
      `invalid evaluator option overallKey: "${overallKey}" is also a criterion's id; give the overall result another key`,
    );
  }
  return { criteria: keys, overall };
}

/** The openevals view of a result: what the catalog evaluators give for it. */
export function toEvaluatorResults(
  result: EvaluationResult,
  options: { keyPrefix?: string; overallKey?: string } = {},
): EvaluatorResult[] {
  return resultsOf(resultKeys(result.criteria, options), result);
}

/** Every result of an evaluation that could not be made: null scores saying why, redacted. */
export function failedResults(keys: ResultKeys, error: unknown): EvaluatorResult[] {
  const code = isEvalgateError(error) ? error.code : "UNEXPECTED";
  const message = error instanceof Error ? error.message : String(error);
  const why = redactSecretText(`${isEvalgateError(error) ? `${code}: ` : ""}${message}`).slice(
    0,
    2_000,
  );
  return [...keys.criteria.map((c) => c.key), keys.overall].map((key) => ({
    key,
    score: null,
    comment: `Not evaluated: the evaluation failed (${why})`,
    metadata: { error: code },
  }));
}
