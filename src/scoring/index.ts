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
export * from "./corrections.js";
export { makeCriterionResult, notEvaluatedOutcome } from "./criterionResult.js";
export * from "./errors.js";
export { evaluateGates } from "./gates.js";
export type { CriterionOutcome } from "./outcome.js";
export * from "./panelResult.js";
export * from "./result.js";
export { encodeResultsToon } from "./resultsToon.js";
export { fromUnit, levelScore, toUnit } from "./scale.js";
export { type CatalogScore, scoreCatalogResult } from "./scoreCatalog.js";
export { type ResultOverrides, settleResult } from "./settle.js";
export { decideFundingStatus } from "./status.js";
export { decideVerdict, verdictForScore } from "./verdict.js";
