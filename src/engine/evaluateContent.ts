import { dirname } from "node:path";
import { SUMMARY_SYSTEM, summaryUserPrompt } from "../../prompts/evaluation/index.js";
import { FunctionRegistry } from "../checks/registry.js";
import { activeCatalog } from "../criteria/activeCatalog.js";
import { type Catalog, isLlmMethod } from "../criteria/model.js";
import { createTemplateTimeBudget } from "../criteria/templateBudget.js";
import { requireUsableCatalog } from "../criteria/validate.js";
import { contentText } from "../judge/render.js";
import {
  type EvaluationResult,
  EvaluationResultSchema,
  type TokenUsage,
} from "../scoring/result.js";
import { encodeResultsToon } from "../scoring/resultsToon.js";
import type { ResultOverrides } from "../scoring/scoreCatalog.js";
import { scoreCatalogResult } from "../scoring/scoreCatalog.js";
import {
  type Assembly,
  assembleResult,
  criterionResults,
  validateResult,
} from "./assembleResult.js";
import { checkContentBudget } from "./contentBudget.js";
import { EvaluationError, EvaluationModelError, judgeCallError, parseInput } from "./errors.js";
import { checkEvidence, givenQuotes, quoteSources } from "./evidence.js";
import { planFewShot } from "./fewShotExamples.js";
import { GuardScreen } from "./guardScreen.js";
import { type CatalogJudging, judgeCatalog } from "./judgeCatalog.js";
import type { JudgeSession } from "./judgeSession.js";
import {
  type EvaluateContentOptions,
  type EvaluationSettings,
  EvaluationSettingsSchema,
  injectionGuardDefault,
} from "./options.js";
import { type Judging, judgeWithPanel, judgingOf, withPanels } from "./panel.js";
import { checkedContent } from "./projectContent.js";

import { injectionReasons, screenedTexts, screenResult } from "./screening.js";

export { isJudgeModel, resolveJudgeModel } from "./judgeSession.js";

function parseSettings(options: EvaluateContentOptions): EvaluationSettings {
  const given = { ...options, injectionGuard: options.injectionGuard ?? injectionGuardDefault() };
  return parseInput(EvaluationSettingsSchema, given, "evaluation options");
}

function sumUsage(usages: readonly TokenUsage[]): TokenUsage {
  const sum = (key: keyof TokenUsage) => usages.reduce((total, u) => total + u[key], 0);
  return {
    inputTokens: sum("inputTokens"),
    outputTokens: sum("outputTokens"),
    totalTokens: sum("totalTokens"),
  };
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

/** Where a catalog's `module:function` refs and schema files are found, and its functions. */
export function catalogFunctions(
  catalog: Catalog,
  given: { baseDir?: string; registry?: FunctionRegistry },
): { baseDir: string; registry: FunctionRegistry } {
  const baseDir =
    given.baseDir ?? (catalog.source === undefined ? process.cwd() : dirname(catalog.source));
  return { baseDir, registry: given.registry ?? new FunctionRegistry({ baseDir }) };
}

interface EvaluationRun {
  result: EvaluationResult;
  /** Set when the judge could not be reached: each LLM criterion is then a judge error. */
  modelFailure?: EvaluationModelError;
}

/**
 * The evaluation pipeline every way in calls: judging, screening, scoring and feedback, every
 * model call traced. A judge that could not be reached at all gives `modelFailure`; the
 * deterministic results stand.
 */
export async function runEvaluation(given: EvaluateContentOptions): Promise<EvaluationRun> {
  const options = { ...given, catalog: await activeCatalog(given.catalog, given.rubricRegistry) };
  requireUsableCatalog(options.catalog);
  const settings = parseSettings(options);
  const text = checkContent(options.content);
  checkContentBudget(text, options.maxContentBytes);
  const checked = checkedContent({ ...options, text });
  const judging = judgingOf(options, settings);
  const { session } = judging;
  try {
    return await evaluateWith(options, settings, { text, checked }, judging);
  } catch (error) {
    // Every call made is on file before the caller hears of the error.
    await session.flush().catch(() => undefined);
    throw error;
  }
}

/**
 * Evaluates content against a catalog; when no model call succeeded at all, throws
 * EvaluationModelError, whose `result` holds the deterministic criteria.
 *
 * @example
 * const catalog = await loadCatalog("config/evaluation/criteria/budget.json");
 * const result = await evaluateContent({ content: budgetText, catalog, contentType: "budget" });
 * console.log(result.passed, result.overallScore, result.verdict, result.feedback);
 */
export async function evaluateContent(options: EvaluateContentOptions): Promise<EvaluationResult> {
  const { result, modelFailure } = await runEvaluation(options);
  if (modelFailure === undefined) return result;
  throw new EvaluationModelError(modelFailure.modelError, modelFailure.criterionIds, result);
}

/** Judges the catalog (alone or with a panel) with the injection guard beside it. */
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

/** The content as text (as the judge sees it), and what the deterministic criteria read. */
interface ContentRead {
  text: string;
  checked: unknown;
}

async function judgeScoreAndScreen(
  options: EvaluateContentOptions,
  settings: EvaluationSettings,
  { text, checked }: ContentRead,
  judging: Judging,
) {
  const { catalog } = options;
  const { session } = judging;
  const { baseDir, registry } = catalogFunctions(catalog, options);
  const warnings = [...catalog.warnings];
  // Content no judge reads (every criterion deterministic, or no judge) cannot steer a judge.
  const read = session.hasJudge && catalog.criteria.some((c) => isLlmMethod(c.method));
  const texts = read ? screenedTexts(text, options) : [];
  const early = injectionReasons(texts);
  if (early.length > 0) session.bypassCache();
  const guard = new GuardScreen(settings.injectionGuard && read ? session : undefined, texts);

  const gated = { ...options, onProgress: guard.gate(options.onProgress) };
  const fewShot = await planFewShot(options, text, warnings);
  // One time budget for every decode prompt, a panel's members included.
  const templateBudget = createTemplateTimeBudget();
  const job = {
    options: gated,
    settings,
    text,
    checked,
    session,
    registry,
    baseDir,
    warnings,
    guard,
    templateBudget,
  };
  const withExamples = fewShot === undefined ? job : { ...job, fewShot };
  const judgement = await judgeWithGuard(withExamples, judging);
  const { panelRun, judged } = judgement;
  const results = criterionResults(catalog, judged, warnings);
  const scored = scoreCatalogResult(catalog, withPanels(results, panelRun?.panels ?? new Map()));
  const evidence = checkEvidence(
    scored.criteria,
    givenQuotes(judged),
    quoteSources(text, [
      ...(options.context === undefined ? [] : [{ text: options.context }]),
      ...(options.documents ?? []),
    ]),
  );
  const score = { ...scored, criteria: evidence.criteria };
  const { screening, warnings: named } = screenResult({
    early: [...early, ...judgement.guardReasons],
    criteria: score.criteria,
    ...(panelRun === undefined ? {} : { panel: panelRun.summary }),
  });
  warnings.push(...score.warnings, ...(panelRun?.warnings ?? []), ...evidence.warnings, ...named);
  return { judgement, score, evidence, screening, warnings };
}

async function evaluateWith(
  options: EvaluateContentOptions,
  settings: EvaluationSettings,
  read: ContentRead,
  judging: Judging,
): Promise<EvaluationRun> {
  const { catalog } = options;
  const { session } = judging;
  const { judgement, score, evidence, screening, warnings } = await judgeScoreAndScreen(
    options,
    settings,
    read,
    judging,
  );
  const { panelRun, judged, judgeMode, modelFailure } = judgement;
  const parts: Assembly = { options, settings, session, judged, judgeMode, score, warnings };
  if (evidence.summary.quotes > 0) parts.evidence = evidence.summary;
  if (panelRun !== undefined) parts.panel = panelRun.summary;
  const overrides: ResultOverrides = { humanReview: screening.reasons.map((r) => r.message) };
  const result = await validateResult(parts, overrides, assembleResult(parts, overrides));
  if (settings.summary === "model" && modelFailure === undefined && session.hasJudge) {
    result.feedback = await modelSummary(session, catalog.name, result);
  }
  result.usage = sumUsage(session.traces.map((t) => t.usage));
  result.warnings.push(...session.cacheProblems);
  await session.flush();
  const parsed = EvaluationResultSchema.parse(result);
  if (modelFailure !== undefined) return { result: parsed, modelFailure };
  options.onProgress?.({ type: "done", passed: parsed.passed, overallScore: parsed.overallScore });
  return { result: parsed };
}

/** A model-written summary; the deterministic one stays when the model cannot answer. */
async function modelSummary(
  session: JudgeSession,
  catalogName: string,
  result: EvaluationResult,
): Promise<string> {
  const call = {
    purpose: "summary" as const,
    criterionIds: [],
    system: SUMMARY_SYSTEM,
    user: summaryUserPrompt({
      catalogName,
      resultsToon: encodeResultsToon(result),
      strengths: result.strengths,
      weaknesses: result.weaknesses,
      suggestions: result.suggestions,
    }),
  };
  const kept = await session.recall(call, (text) => text.trim() !== "");
  if (kept !== undefined) return kept.trim();
  try {
    const text = await session.call(call);
    if (text.trim() !== "") {
      await session.remember(call, text);
      return text.trim();
    }
    result.warnings.push("summary: the model gave an empty summary; the deterministic one is kept");
  } catch (error) {
    // The model's error text (it may name the server) stays in the call's trace.
    const { code } = judgeCallError(error);
    result.warnings.push(`summary: the model call failed (${code}); the deterministic one is kept`);
  }
  return result.feedback;
}
