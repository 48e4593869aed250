import { isEvaluated } from "./consistency.js";
import type { CriterionResult } from "./result.js";

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

function gateFailureOf(result: CriterionResult): GateFailure | undefined {
  const base = { criterionId: result.id, score: result.score, threshold: result.threshold };
  if (isEvaluated(result)) {
    if (result.met !== false) return undefined;
    if (result.knockout) {
      return {
        ...base,
        kind: "knockout_failed",
        message: `knockout ${describe(result)} failed (score ${result.score.toFixed(2)} < ${result.threshold})`,
      };
    }
    if (result.critical) {
      return {
        ...base,
        kind: "critical_unmet",
        message: `critical ${describe(result)} below its threshold (score ${result.score.toFixed(2)} < ${result.threshold})`,
      };
    }
    return undefined;
  }
  const reason = result.judgeError !== undefined ? `: ${result.judgeError}` : "";
  if (result.critical || result.knockout) {
    return {
      ...base,
      kind: "critical_not_evaluated",
      message: `${result.knockout ? "knockout" : "critical"} ${describe(result)} could not be evaluated${reason}`,
    };
  }
  if (result.required) {
    return {
      ...base,
      kind: "required_not_evaluated",
      message: `required ${describe(result)} could not be evaluated${reason}`,
    };
  }
  return undefined;
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
      const reason = result.judgeError !== undefined ? `: ${result.judgeError}` : "";
      warnings.push(`optional ${describe(result)} could not be evaluated and is left out${reason}`);
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
