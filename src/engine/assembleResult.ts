import { type Catalog, isLlmMethod } from "../criteria/model.js";
import { makeCriterionResult } from "../scoring/criterionResult.js";
import { suggestionsFor } from "../scoring/deterministicSummary.js";
import type {
  CriterionResult,
  EvaluationResult,
  EvidenceSummary,
  JudgeMode,
  PanelSummary,
} from "../scoring/result.js";
import type { CatalogScore } from "../scoring/scoreCatalog.js";
import { type ResultOverrides, settleResult } from "../scoring/scoreCatalog.js";
import type { JudgedCriterion } from "./criterionJudge.js";
import { examplesUsed } from "./fewShotExamples.js";
import type { JudgeSession } from "./judgeSession.js";
import type { EvaluateContentOptions, EvaluationSettings } from "./options.js";

/** The criterion results in catalog order, with the notes of every answer as warnings. */
export function criterionResults(
  catalog: Catalog,
  judged: Map<string, JudgedCriterion>,
  warnings: string[],
): CriterionResult[] {
  return catalog.criteria.map((criterion) => {
    const found = judged.get(criterion.id);
    if (found === undefined) throw new Error(`internal: criterion ${criterion.id} was not judged`);
    for (const note of found.notes) warnings.push(`${criterion.id}: ${note}`);
    // The parser notes an empty reasoning itself; the engine says so only when it did not.
    if (
      found.outcome.evaluated &&
      isLlmMethod(criterion.method) &&
      found.outcome.reasoning.trim() === "" &&
      !found.notes.some((note) => note.includes("reasoning"))
    ) {
      warnings.push(`${criterion.id}: the judge gave no reasoning`);
    }
    return makeCriterionResult(criterion, found.outcome, catalog);
  });
}

export interface Assembly {
  options: EvaluateContentOptions;
  settings: EvaluationSettings;
  session: JudgeSession;
  judged: Map<string, JudgedCriterion>;
  judgeMode: JudgeMode | undefined;
  score: CatalogScore;
  warnings: string[];
  evidence?: EvidenceSummary;
  panel?: PanelSummary;
}

/**
 * Who judged: a panel's judges in the panel's order, joined by ", " (as its summary lists them);
 * a single judge's model as its first answered call reports it, else the spec it was given.
 */
function modelOf({ panel, session }: Assembly): string {
  if (panel !== undefined) return panel.judges.join(", ");
  return session.traces.find((t) => t.error === undefined)?.model ?? session.modelSpec;
}

/** The result, with passed, verdict, status and summary settled together under the overrides. */
export function assembleResult(parts: Assembly, overrides: ResultOverrides): EvaluationResult {
  const { options, score, session } = parts;
  const { catalog } = options;
  return {
    ...settleResult(catalog, score, overrides),
    timestamp: (options.now?.() ?? new Date()).toISOString(),
    evaluator: parts.settings.evaluator,
    overallScore: score.overallScore,
    scores: score.scores,
    ...collectFeedback(catalog, score.criteria),
    rawResponse: Object.fromEntries(
      catalog.criteria.flatMap((c) => {
        const raw = parts.judged.get(c.id)?.raw;
        return raw === undefined ? [] : [[c.id, raw]];
      }),
    ),
    criteria: score.criteria,
    notEvaluated: score.notEvaluated,
    catalog: {
      id: catalog.id,
      version: catalog.version,
      name: catalog.name,
      ...(catalog.registryVersion === undefined
        ? {}
        : { registryVersion: catalog.registryVersion }),
    },
    model: modelOf(parts),
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    cacheHits: [...parts.judged.values()].reduce(
      (hits, j) => hits + (j.memberCacheHits ?? (j.cached === true ? 1 : 0)),
      0,
    ),
    ...(parts.judgeMode === undefined ? {} : { judgeMode: parts.judgeMode }),
    warnings: parts.warnings,
    traces: session.traces,
    ...(parts.evidence === undefined ? {} : { evidence: parts.evidence }),
    ...(parts.panel === undefined ? {} : { panel: parts.panel }),
    fewShotExamples: examplesUsed(parts.judged),
  };
}

/** The caller's validator, when something was evaluated: a rejection is settled into the result. */
export async function validateResult(
  parts: Assembly,
  overrides: ResultOverrides,
  result: EvaluationResult,
): Promise<EvaluationResult> {
  const { validator } = parts.options;
  if (validator === undefined || result.notEvaluated.length === result.criteria.length) {
    return result;
  }
  const answer = await validator(result);
  const valid = typeof answer === "boolean" ? answer : answer.valid;
  if (valid) return result;
  const reason = typeof answer === "boolean" ? "" : (answer.reason ?? "");
  const shown = typeof answer === "boolean" ? "" : `: ${reason}`;
  parts.warnings.push(`the custom validator rejected the result${shown}`);
  return assembleResult(parts, { ...overrides, validatorRejection: reason });
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items.map((i) => i.trim()).filter((i) => i !== ""))];
}

/**
 * Hits are strengths, misses and unmet or unevaluated criteria weaknesses. Weaknesses reach plain
 * reviewers and the writer: an unevaluated criterion is named, its judge error (an administrator's
 * text, which may name the model server) stays in its `judgeError`.
 */
function collectFeedback(
  catalog: Catalog,
  results: readonly CriterionResult[],
): Pick<EvaluationResult, "strengths" | "weaknesses" | "suggestions"> {
  const strengths: string[] = [];
  const weaknesses: string[] = [];
  for (const result of results) {
    if (!result.evaluated) {
      weaknesses.push(`${result.title}: could not be evaluated`);
      continue;
    }
    for (const hit of result.hits) strengths.push(`${result.title}: ${hit}`);
    for (const miss of result.misses) weaknesses.push(`${result.title}: ${miss}`);
    if (
      result.met === true &&
      result.hits.length === 0 &&
      result.score !== null &&
      result.score >= 0.8
    ) {
      strengths.push(`${result.title}: ${result.reasoning}`);
    }
    if (result.met === false && result.misses.length === 0) {
      weaknesses.push(`${result.title}: ${result.reasoning || "below its threshold"}`);
    }
  }
  return {
    strengths: unique(strengths),
    weaknesses: unique(weaknesses),
    suggestions: unique(suggestionsFor(catalog, results)),
  };
}
