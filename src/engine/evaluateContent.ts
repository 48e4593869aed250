import { dirname } from "node:path";
import { FunctionRegistry } from "../checks/registry.js";
import { type Catalog, isLlmMethod } from "../criteria/model.js";
import { createTemplateTimeBudget } from "../criteria/templateBudget.js";
import { requireUsableCatalog } from "../criteria/validate.js";
import { contentText } from "../judge/render.js";
import { makeCriterionResult } from "../scoring/criterionResult.js";
import type { EvidenceSummary } from "../scoring/evidenceResult.js";
import type { PanelSummary } from "../scoring/panelResult.js";
import {
  type CriterionResult,
  type EvaluationResult,
  EvaluationResultSchema,
  type JudgeMode,
} from "../scoring/result.js";
import { type CatalogScore, scoreCatalogResult } from "../scoring/scoreCatalog.js";
import { type ResultOverrides, settleResult } from "../scoring/settle.js";
import { checkContentBudget } from "./contentBudget.js";
import type { JudgedCriterion } from "./criterionJudge.js";
import { EvaluationError } from "./errors.js";
import { checkEvidence, givenQuotes, quoteSources } from "./evidence.js";
import { collectFeedback } from "./feedback.js";
import { examplesUsed, planFewShot } from "./fewShotExamples.js";
import { GuardScreen, screenedTexts } from "./guardScreen.js";
import { scanTexts } from "./injectionScreen.js";
import { type CatalogJudging, judgeCatalog } from "./judgeCatalog.js";
import type { JudgeSession } from "./judgeSession.js";
import { modelSummary } from "./modelSummary.js";
import {
  type EvaluateContentOptions,
  type EvaluationSettings,
  EvaluationSettingsSchema,
  injectionGuardDefault,
} from "./options.js";
import { judgeWithPanel, withPanels } from "./panel.js";
import { type Judging, judgingOf } from "./panelMembers.js";
import { checkReasoningConsistency } from "./reasoningCheck.js";
import { sumUsage } from "./usage.js";

export { isJudgeModel, resolveJudgeModel } from "./judgeModel.js";

function parseSettings(options: EvaluateContentOptions): EvaluationSettings {
  const parsed = EvaluationSettingsSchema.safeParse({
    mode: options.mode,
    concurrency: options.concurrency,
    parallelSlots: options.parallelSlots,
    answerLists: options.answerLists,
    timeoutMs: options.timeoutMs,
    contextChunks: options.contextChunks,
    summary: options.summary,
    evaluator: options.evaluator,
    structuredOutput: options.structuredOutput,
    injectionGuard: options.injectionGuard ?? injectionGuardDefault(),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EvaluationError(
      "input",
      `invalid evaluation option ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}

function checkContent(content: unknown): string {
  if (content === undefined || content === null) {
    throw new EvaluationError("input", "no content to evaluate (content is missing)");
  }
  if (typeof content === "function" || typeof content === "symbol") {
    throw new EvaluationError(
      "input",
      `content must be text or JSON data, got a ${typeof content}`,
    );
  }
  return contentText(content);
}

/**
 * Evaluates content against a catalog: deterministic criteria first (free), then the LLM criteria
 * — one judge call each, `concurrency` at a time, or all in one TOON batch — each answer parsed
 * fail-closed; then weighted scoring, gates, verdict and funding status, strengths, weaknesses,
 * suggestions and feedback, with every model call traced. A criterion the judge could not answer
 * is reported as not evaluated; when no model call succeeded at all, an EvaluationModelError is
 * thrown (the cause is the typed model error).
 *
 * @example
 * const catalog = await loadCatalog("config/evaluation/criteria/budget.json");
 * const result = await evaluateContent({ content: budgetText, catalog, contentType: "budget" });
 * console.log(result.passed, result.overallScore, result.verdict, result.feedback);
 */
export async function evaluateContent(options: EvaluateContentOptions): Promise<EvaluationResult> {
  // A catalog `catalog validate` would call invalid is refused here too (a CatalogError), however
  // it was made; a usable one is judged as given.
  requireUsableCatalog(options.catalog);
  const settings = parseSettings(options);
  const text = checkContent(options.content);
  checkContentBudget(text, options.maxContentBytes);
  // The caller's timeout (when given) binds a ready-made model too; a built one gets the default.
  const judging = judgingOf(options, settings);
  const { session } = judging;
  try {
    return await runEvaluation(options, settings, text, judging);
  } catch (error) {
    // Whatever ends the evaluation (an abort, a model-wide failure), every call made is on file
    // before the caller hears of it; the original error is the one reported.
    await session.flush().catch(() => undefined);
    throw error;
  }
}

/**
 * Judges the catalog (alone or with a panel) with the injection guard beside it, and waits for
 * the guard's answer: the reasons for human review it gave come back with the judgement.
 */
async function judgeWithGuard(job: CatalogJudging & { guard: GuardScreen }, judging: Judging) {
  const { members, panel } = judging;
  try {
    // A panel's members each judge the whole catalog: the guard asks on its own, beside them.
    if (members.length > 1) job.guard.start();
    const panelRun = members.length > 1 ? await judgeWithPanel(job, members, panel) : undefined;
    const judgement = panelRun ?? (await judgeCatalog(job));
    return { panelRun, ...judgement, guardReasons: await job.guard.finish() };
  } catch (error) {
    await job.guard.abandon().catch(() => undefined);
    throw error;
  }
}

/** The criterion results in catalog order, with the notes of every answer as warnings. */
function criterionResults(
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

/** What a finished evaluation is assembled from. */
interface Assembly {
  options: EvaluateContentOptions;
  settings: EvaluationSettings;
  session: JudgeSession;
  judged: Map<string, JudgedCriterion>;
  judgeMode: JudgeMode | undefined;
  score: CatalogScore;
  warnings: string[];
  /** The judges' quotes, checked (when they gave any). */
  evidence?: EvidenceSummary;
  panel?: PanelSummary;
}

function fewShotField(judged: Map<string, JudgedCriterion>) {
  const used = examplesUsed(judged);
  return used === undefined ? {} : { fewShotExamples: used };
}

/** The result, with passed, verdict, status and summary settled together under the overrides. */
function assembleResult(parts: Assembly, overrides: ResultOverrides): EvaluationResult {
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
    catalog: { id: catalog.id, version: catalog.version, name: catalog.name },
    model: session.traces.find((t) => t.error === undefined)?.model ?? session.modelSpec,
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
    ...fewShotField(parts.judged),
  };
}

/**
 * The caller's validator, when there is one and something was evaluated: a rejection is settled
 * into the result (it cannot pass, its verdict is fail) and noted in the warnings.
 */
async function validate(
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

async function runEvaluation(
  options: EvaluateContentOptions,
  settings: EvaluationSettings,
  text: string,
  judging: Judging,
): Promise<EvaluationResult> {
  const { catalog } = options;
  const { session } = judging;
  const baseDir =
    options.baseDir ?? (catalog.source === undefined ? process.cwd() : dirname(catalog.source));
  const registry = options.registry ?? new FunctionRegistry({ baseDir });
  const warnings = [...catalog.warnings];
  // Content no judge reads (every criterion deterministic) cannot steer a judge: not screened.
  const llmJudged = catalog.criteria.some((c) => isLlmMethod(c.method));
  const texts = llmJudged ? screenedTexts(text, options) : [];
  const humanReview = scanTexts(texts).reasons;
  if (humanReview.length > 0) session.bypassCache();
  const guard = new GuardScreen(settings.injectionGuard && llmJudged ? session : undefined, texts);

  const gated = { ...options, onProgress: guard.gate(options.onProgress) };
  const fewShot = await planFewShot(options, text, warnings);
  // One time budget for every decode prompt of this evaluation, a panel's members included.
  const templateBudget = createTemplateTimeBudget();
  const job = {
    options: gated,
    settings,
    text,
    session,
    registry,
    baseDir,
    warnings,
    guard,
    templateBudget,
  };
  const withExamples = fewShot === undefined ? job : { ...job, fewShot };
  const { panelRun, judged, judgeMode, guardReasons } = await judgeWithGuard(withExamples, judging);
  humanReview.push(...guardReasons);
  warnings.push(...humanReview.map((reason) => `${reason} — a human must review this result`));
  const results = criterionResults(catalog, judged, warnings);
  const scored = scoreCatalogResult(catalog, withPanels(results, panelRun?.panels ?? new Map()));
  const sources = quoteSources(text, options.documents);
  const evidence = checkEvidence(scored.criteria, givenQuotes(judged), sources);
  const score = { ...scored, criteria: evidence.criteria };
  const consistency = checkReasoningConsistency(score.criteria);
  warnings.push(...score.warnings, ...(panelRun?.warnings ?? []), ...evidence.warnings);
  warnings.push(...consistency.warnings);
  humanReview.push(...(panelRun?.humanReview ?? []), ...evidence.humanReview);
  humanReview.push(...consistency.humanReview);

  const parts: Assembly = { options, settings, session, judged, judgeMode, score, warnings };
  if (evidence.summary.quotes > 0) parts.evidence = evidence.summary;
  if (panelRun !== undefined) parts.panel = panelRun.summary;
  const overrides: ResultOverrides = { humanReview };
  const result = await validate(parts, overrides, assembleResult(parts, overrides));
  if (settings.summary === "model") {
    result.feedback = await modelSummary(session, catalog.name, result);
  }
  result.usage = sumUsage(session.traces.map((t) => t.usage));
  result.warnings.push(...session.cacheProblems);
  await session.flush();
  const parsed = EvaluationResultSchema.parse(result);
  options.onProgress?.({ type: "done", passed: parsed.passed, overallScore: parsed.overallScore });
  return parsed;
}
