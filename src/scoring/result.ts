import { z } from "zod";
import { METHOD_KINDS } from "../criteria/model.js";

/** Verdict bands: pass ≥ 0.8, borderline ≥ 0.6, fail below. */
export const VerdictSchema = z.enum(["pass", "borderline", "fail"]);
export type Verdict = z.infer<typeof VerdictSchema>;

/** Funding status: FUNDABLE, REVIEW_REQUIRED or REJECTED (where the catalog has status rules). */
export const FundingStatusSchema = z.enum(["FUNDABLE", "REVIEW_REQUIRED", "REJECTED"]);
export type FundingStatus = z.infer<typeof FundingStatusSchema>;

/** A criterion's value on its own scale: a number (4 on 1–5), "pass"/"fail", or a level id. */
export const NativeValueSchema = z.union([z.number(), z.string()]).nullable();
export type NativeValue = z.infer<typeof NativeValueSchema>;

export const TokenUsageSchema = z.object({
  inputTokens: z.number().int().min(0).default(0),
  outputTokens: z.number().int().min(0).default(0),
  totalTokens: z.number().int().min(0).default(0),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** A score as the model wrote it, or the scale's mean weighted by its token probabilities. */
const ScoreMethodSchema = z.enum(["probability-weighted", "plain"]);

/** What weighting one answer's score gave: the weighted score and its distribution, or why not. */
export const ScoreWeightingSchema = z.discriminatedUnion("scoreMethod", [
  z.object({
    scoreMethod: z.literal("probability-weighted"),
    /** The weighted mean on the criterion's native scale (4.2 on 1–5). */
    native: z.number(),
    /** Each scale value's probability, renormalised over the scale's values. */
    distribution: z.record(z.string(), z.number().min(0).max(1)),
    /** The probability the scale's values carried before renormalising. */
    mass: z.number().min(0),
    /** The value the model wrote (the token sampled at the score's position). */
    sampled: z.number(),
  }),
  z.object({ scoreMethod: z.literal("plain"), reason: z.string() }),
]);
export type ScoreWeighting = z.infer<typeof ScoreWeightingSchema>;

/**
 * One passage a judge quoted for its verdict, checked against the content: `verified` when the
 * content says it (word for word after whitespace and case normalisation, or nearly so),
 * `similarity` the share of the quote's words found together in the best-matching stretch.
 */
export const QuoteCheckSchema = z.object({
  text: z.string(),
  verified: z.boolean(),
  similarity: z.number().min(0).max(1),
  /** Which judge of a panel quoted it (absent for a single judge). */
  judge: z.string().optional(),
});
export type QuoteCheck = z.infer<typeof QuoteCheckSchema>;

/** How many quotes of an evaluation were checked, and how many the content does not contain. */
export const EvidenceSummarySchema = z.object({
  quotes: z.number().int().min(0),
  verified: z.number().int().min(0),
  unverified: z.number().int().min(0),
});
export type EvidenceSummary = z.infer<typeof EvidenceSummarySchema>;

/** How a panel's answers become the criterion's score. */
export const PanelAggregateSchema = z.enum(["median", "mean", "majority"]);
export type PanelAggregate = z.infer<typeof PanelAggregateSchema>;

const AgreementMetricSchema = z.enum(["nominal", "ordinal", "interval"]);

/** One panel member's answer for one criterion. */
export const PanelAnswerSchema = z.object({
  judge: z.string(),
  evaluated: z.boolean(),
  score: z.number().min(0).max(1).nullable(),
  native: z.union([z.number(), z.string()]).nullable(),
  reasoning: z.string(),
  /** Why this member gave no answer: a gap in the panel, reported, never left out silently. */
  judgeError: z.string().optional(),
});
export type PanelAnswer = z.infer<typeof PanelAnswerSchema>;

/** A criterion judged by a panel: every member's answer, the aggregate, and their agreement. */
export const CriterionPanelSchema = z.object({
  answers: z.array(PanelAnswerSchema),
  aggregate: PanelAggregateSchema,
  /**
   * Agreement of the answers on the criterion's scale (1 − observed / chance disagreement);
   * null with fewer than two answers.
   */
  agreement: z.number().max(1).nullable(),
  metric: AgreementMetricSchema,
});
export type CriterionPanel = z.infer<typeof CriterionPanelSchema>;

/** The panel of an evaluation: its judges, how they were aggregated, and their overall agreement. */
export const PanelSummarySchema = z.object({
  judges: z.array(z.string()),
  aggregate: PanelAggregateSchema,
  minAgreement: z.number().optional(),
  /**
   * Krippendorff's alpha over the panel's criteria (interval, on the 0–1 scores); null when it is
   * undefined (fewer than two criteria with two answers, or no variation at all).
   */
  agreement: z.number().max(1).nullable(),
  /** Criterion answers a member could not give. */
  gaps: z.number().int().min(0),
});
export type PanelSummary = z.infer<typeof PanelSummarySchema>;

export const CriterionResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  method: z.enum(METHOD_KINDS),
  weight: z.number().min(0),
  critical: z.boolean(),
  knockout: z.boolean(),
  required: z.boolean(),
  /** False when the judge (or function) could not give an answer; then score is null. */
  evaluated: z.boolean(),
  score: z.number().min(0).max(1).nullable(),
  native: NativeValueSchema,
  /** The level decided, for levels / function / schema criteria that have levels. */
  level: z.string().optional(),
  met: z.boolean().nullable(),
  threshold: z.number().min(0).max(1),
  reasoning: z.string(),
  hits: z.array(z.string()).default([]),
  misses: z.array(z.string()).default([]),
  evidence: z.array(z.string()).default([]),
  citation: z.string().optional(),
  /** What the judge quoted, each quote checked against the content. */
  quotes: z.array(QuoteCheckSchema).optional(),
  panel: CriterionPanelSchema.optional(),
  /** Why the criterion could not be evaluated (judge error, function error, no context). */
  judgeError: z.string().optional(),
  /** With probability-weighted scores asked for: which score stands, and why a plain one did. */
  scoreMethod: ScoreMethodSchema.optional(),
  scoreMethodReason: z.string().optional(),
  /** The native scale of a score criterion (1–5, 0–1): what a reviewer's correction is on. */
  scale: z.object({ min: z.number(), max: z.number(), integer: z.boolean() }).optional(),
  /** The levels a criterion is decided on (a reviewer's correction picks one). */
  levels: z
    .array(z.object({ id: z.string(), label: z.string(), score: z.number().min(0).max(1) }))
    .optional(),
});
export type CriterionResult = z.infer<typeof CriterionResultSchema>;

/**
 * What one way of scoring a criterion found, before thresholds: the judged fields, with the
 * judge's quotes unchecked. `evaluated: false` is never a zero and never a pass.
 */
export const CriterionOutcomeSchema = CriterionResultSchema.pick({
  evaluated: true,
  score: true,
  native: true,
  level: true,
  reasoning: true,
  hits: true,
  misses: true,
  evidence: true,
  judgeError: true,
  scoreMethod: true,
  scoreMethodReason: true,
}).extend({ quotes: z.array(z.string()).optional() });
export type CriterionOutcome = z.infer<typeof CriterionOutcomeSchema>;

/** One model call, recorded exactly, so every score can be traced to its prompt and answer. */
export const TraceSchema = z.object({
  id: z.string(),
  purpose: z.enum(["criterion", "batch", "repair", "summary", "guard"]),
  criterionIds: z.array(z.string()),
  model: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  systemPrompt: z.string(),
  userPrompt: z.string(),
  rawResponse: z.string(),
  usage: TokenUsageSchema,
  latencyMs: z.number().min(0),
  promptHash: z.string(),
  responseHash: z.string(),
  timestamp: z.string(),
  error: z.string().optional(),
  scoreWeighting: ScoreWeightingSchema.optional(),
  /** `id@version` of the registry catalog the call judged with. */
  registryVersion: z.string().optional(),
});
export type Trace = z.infer<typeof TraceSchema>;

/** How the judge was asked; `groups` is the number of group calls. */
export const JudgeModeSchema = z.object({
  mode: z.enum(["per-criterion", "grouped", "batch"]),
  groups: z.number().int().min(0),
});
export type JudgeMode = z.infer<typeof JudgeModeSchema>;

/**
 * The result of one evaluation, whatever the way in. `passed`, `verdict` and `status` always agree.
 *
 * @example
 * const result = EvaluationResultSchema.parse(JSON.parse(await readFile("result.json", "utf8")));
 * if (result.status === "REVIEW_REQUIRED") queueForReview(result);
 */
export const EvaluationResultSchema = z.object({
  passed: z.boolean(),
  timestamp: z.string(),
  evaluator: z.string(),
  /** Weighted 0–1 over the criteria that were evaluated (knockouts excluded). */
  overallScore: z.number().min(0).max(1),
  scores: z.record(z.string(), z.number().min(0).max(1)),
  strengths: z.array(z.string()),
  weaknesses: z.array(z.string()),
  suggestions: z.array(z.string()),
  feedback: z.string(),
  rawResponse: z.unknown().optional(),
  verdict: VerdictSchema,
  status: FundingStatusSchema.optional(),
  /** The weighted total on the catalog's status scale (3.4 on a 1–5 funding catalog). */
  nativeTotal: z.number().optional(),
  criteria: z.array(CriterionResultSchema),
  notEvaluated: z.array(z.string()),
  catalog: z.object({
    id: z.string(),
    version: z.string(),
    name: z.string().optional(),
    /** `id@version`, when the rubric registry supplied the catalog. */
    registryVersion: z.string().optional(),
  }),
  /**
   * Who judged, `provider:model`. With a panel, every judge in the panel's order joined by ", "
   * (`ollama:a, ollama:b, ollama:c`), the same names as `panel.judges`.
   */
  model: z.string().optional(),
  usage: TokenUsageSchema,
  /** Criteria whose answer came from the judge-call cache. */
  cacheHits: z.number().int().min(0).optional(),
  judgeMode: JudgeModeSchema.optional(),
  warnings: z.array(z.string()),
  /** Every model call, exactly; empty when the traces are kept in a trace store (see traceIds). */
  traces: z.array(TraceSchema),
  /** In the trace store: this evaluation's id, and its traces' ids in call order. */
  evaluationId: z.string().optional(),
  traceIds: z.array(z.string()).optional(),
  /** The screening found a reason for a person to look: the result cannot pass until then. */
  humanReviewRequired: z.boolean().optional(),
  humanReviewReasons: z.array(z.string()).optional(),
  /** A caller's validator rejected the result: its reason, or "". */
  validatorRejection: z.string().optional(),
  evidence: EvidenceSummarySchema.optional(),
  /** The few-shot examples' label ids, per criterion id. */
  fewShotExamples: z.record(z.string(), z.array(z.string())).optional(),
  panel: PanelSummarySchema.optional(),
});
export type EvaluationResult = z.infer<typeof EvaluationResultSchema>;
