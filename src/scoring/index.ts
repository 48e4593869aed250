/**
 * `evalgate/scoring`: the pure math of a result — scales to 0–1 and back, weighted averages,
 * gates, verdicts, funding status — the EvaluationResult schemas, results as TOON, and the
 * calibration figures of reviewer labels (Cohen's κ, Spearman's ρ, the threshold sweep).
 */
export { type WeightedAverage, weightedAverage } from "./aggregate.js";
export {
  type AgreementMetric,
  type AgreementScale,
  krippendorffAlpha,
  scaleAgreement,
  type Unit as AgreementUnit,
} from "./agreement.js";
export * from "./calibrationLabel.js";
export { type EvaluatedCriterionResult, isEvaluated, meetsThreshold } from "./consistency.js";
export * from "./corrections.js";
export { makeCriterionResult, notEvaluatedOutcome, thresholdOf } from "./criterionResult.js";
export * from "./errors.js";
export { evaluateGates, type GateFailure, type GateFailureKind, type GateReport } from "./gates.js";
export { type CriterionOutcome, CriterionOutcomeSchema } from "./outcome.js";
export * from "./panelResult.js";
export * from "./result.js";
export { encodeResultsToon, type ResultsToonDocument, type ResultsToonRow } from "./resultsToon.js";
export { type CheckResult, fromUnit, levelScore, toUnit } from "./scale.js";
export { type CatalogScore, scoreCatalogResult } from "./scoreCatalog.js";
export {
  type ResultOverrides,
  type ScoredOutcome,
  type SettledResult,
  settleResult,
} from "./settle.js";
export { decideFundingStatus, type StatusDecision, type StatusInput } from "./status.js";
export { decideVerdict, VERDICT_BANDS, type VerdictGates, verdictForScore } from "./verdict.js";
