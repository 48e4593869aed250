import { isEvaluated } from "./consistency.js";
import type { CriterionResult } from "./result.js";
import { shownScore } from "./shownScore.js";

/**
 * Why a gate does not hold. A required or critical criterion not evaluated is no failing score,
 * but a gate never checked cannot hold (even when marked optional).
 */
type GateFailureKind =
  | "knockout_failed"
  | "critical_unmet"
  | "required_not_evaluated"
  | "critical_not_evaluated";

export interface GateFailure {
  criterionId: string;
  kind: GateFailureKind;
  message: string;
  score: number | null;
  threshold: number;
}

export interface GateReport {
  failures: GateFailure[];
  /** A gate failed on a score: a knockout or critical criterion was evaluated and not met. */
  failed: boolean;
  /** A gate could not be decided: a required or critical criterion was not evaluated. */
  blocked: boolean;
  /** A knockout check failed (the status is REJECTED). */
  knockoutFailed: boolean;
  held: boolean;
  /** Optional criteria that were not evaluated: reported, never a failure. */
  warnings: string[];
}

const SCORE_FAILURES: ReadonlySet<GateFailureKind> = new Set(["knockout_failed", "critical_unmet"]);

function describe(result: CriterionResult): string {
  return `'${result.title}' (${result.id})`;
}

function whyNot(result: CriterionResult): string {
  return result.judgeError !== undefined ? `: ${result.judgeError}` : "";
}

function gateFailureOf(result: CriterionResult): GateFailure | undefined {
  const failure = (kind: GateFailureKind, message: string): GateFailure => ({
    criterionId: result.id,
    kind,
    message,
    score: result.score,
    threshold: result.threshold,
  });
  const what = describe(result);
  if (isEvaluated(result)) {
    if (result.met !== false) return undefined;
    const below = `(score ${shownScore(result.score, "decimal", result.threshold)} < ${result.threshold})`;
    if (result.knockout) return failure("knockout_failed", `knockout ${what} failed ${below}`);
    if (!result.critical) return undefined;
    return failure("critical_unmet", `critical ${what} below its threshold ${below}`);
  }
  const unknown = `${what} could not be evaluated${whyNot(result)}`;
  if (result.critical || result.knockout) {
    const gate = result.knockout ? "knockout" : "critical";
    return failure("critical_not_evaluated", `${gate} ${unknown}`);
  }
  return result.required ? failure("required_not_evaluated", `required ${unknown}`) : undefined;
}

/** Knockouts, critical and required criteria; `met` is trusted (see assertConsistentResult). */
export function evaluateGates(results: readonly CriterionResult[]): GateReport {
  const failures: GateFailure[] = [];
  const warnings: string[] = [];
  for (const result of results) {
    const failure = gateFailureOf(result);
    if (failure !== undefined) {
      failures.push(failure);
      continue;
    }
    if (!isEvaluated(result)) {
      // Warnings reach reviewers: the reason stays in the criterion's judgeError.
      warnings.push(`optional ${describe(result)} could not be evaluated and is left out`);
    }
  }
  const failed = failures.some((f) => SCORE_FAILURES.has(f.kind));
  const blocked = failures.some((f) => !SCORE_FAILURES.has(f.kind));
  return {
    failures,
    failed,
    blocked,
    knockoutFailed: failures.some((f) => f.kind === "knockout_failed"),
    held: failures.length === 0,
    warnings,
  };
}
