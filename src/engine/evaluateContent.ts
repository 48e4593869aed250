import { dirname } from "node:path";
import pLimit from "p-limit";
import { SUMMARY_SYSTEM, summaryUserPrompt } from "../../prompts/evaluation/index.js";
import { FunctionRegistry } from "../checks/registry.js";
import { type Criterion, isLlmMethod } from "../criteria/model.js";
import { scanForInjection } from "../judge/injection.js";
import { contentText } from "../judge/render.js";
import { type ChatModelOptions, createChatModel, type JudgeModel } from "../llm/chatModel.js";
import { ModelAbortedError, ModelCallError } from "../llm/errors.js";
import { makeCriterionResult } from "../scoring/criterionResult.js";
import {
  type EvaluationResult,
  EvaluationResultSchema,
  type TokenUsage,
} from "../scoring/result.js";
import { encodeResultsToon } from "../scoring/resultsToon.js";
import { scoreCatalogResult } from "../scoring/scoreCatalog.js";
import { judgeBatch } from "./batchJudge.js";
import { createContextProvider } from "./contextProvider.js";
import {
  type CriterionJudgeContext,
  type JudgedCriterion,
  judgeCriterion,
} from "./criterionJudge.js";
import { runDeterministicCriterion } from "./deterministic.js";
import { EvaluationError, EvaluationModelError } from "./errors.js";
import { collectFeedback, deterministicSummary } from "./feedback.js";
import { JudgeSession } from "./judgeSession.js";
import {
  type EvaluateContentOptions,
  type EvaluationSettings,
  EvaluationSettingsSchema,
} from "./options.js";

function isJudgeModel(model: unknown): model is JudgeModel {
  return typeof model === "object" && model !== null && "candidates" in model && "retry" in model;
}

/** The judge: as given, or built from a spec / chat model with the evaluation's timeout. */
export function resolveJudgeModel(
  model: EvaluateContentOptions["model"],
  options: ChatModelOptions = {},
): JudgeModel {
  if (isJudgeModel(model)) return model;
  return createChatModel(model, options);
}

function parseSettings(options: EvaluateContentOptions): EvaluationSettings {
  const parsed = EvaluationSettingsSchema.safeParse({
    mode: options.mode,
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    contextChunks: options.contextChunks,
    summary: options.summary,
    evaluator: options.evaluator,
    structuredOutput: options.structuredOutput,
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

function sumUsage(usages: readonly TokenUsage[]): TokenUsage {
  return usages.reduce(
    (acc, u) => ({
      inputTokens: acc.inputTokens + u.inputTokens,
      outputTokens: acc.outputTokens + u.outputTokens,
      totalTokens: acc.totalTokens + u.totalTokens,
    }),
    { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  );
}

/** A model error when every model call failed: the evaluation as a whole could not be made. */
function modelWideFailure(llm: readonly Criterion[], judged: Map<string, JudgedCriterion>) {
  const called = llm.map((c) => judged.get(c.id)).filter((j) => j?.called === true);
  const failed = called.filter((j) => j?.modelError !== undefined);
  const first = failed[0]?.modelError;
  if (first === undefined || failed.length < called.length) return undefined;
  return new EvaluationModelError(
    first,
    llm.filter((c) => judged.get(c.id)?.modelError !== undefined).map((c) => c.id),
  );
}

/**
 * Evaluates content against a catalog: deterministic criteria first (free), then the LLM criteria
 * — one judge call each, `concurrency` at a time, or all in one TOON batch — each answer parsed
 * fail-closed; then weighted scoring, gates, verdict and funding status, strengths, weaknesses,
 * suggestions and feedback, with every model call traced. A criterion the judge could not answer
 * is reported as not evaluated; when no model call succeeded at all, an EvaluationModelError is
 * thrown (the cause is the typed model error).
 */
export async function evaluateContent(options: EvaluateContentOptions): Promise<EvaluationResult> {
  const settings = parseSettings(options);
  const text = checkContent(options.content);
  const judge = resolveJudgeModel(options.model, { timeoutMs: settings.timeoutMs });
  const session = new JudgeSession(judge, { traceFile: options.traceFile, signal: options.signal });
  try {
    return await runEvaluation(options, settings, text, session);
  } catch (error) {
    // Whatever ends the evaluation (an abort, a model-wide failure), every call made is on file
    // before the caller hears of it; the original error is the one reported.
    await session.flush().catch(() => undefined);
    throw error;
  }
}

async function runEvaluation(
  options: EvaluateContentOptions,
  settings: EvaluationSettings,
  text: string,
  session: JudgeSession,
): Promise<EvaluationResult> {
  const { catalog } = options;
  const baseDir =
    options.baseDir ?? (catalog.source === undefined ? process.cwd() : dirname(catalog.source));
  const registry = options.registry ?? new FunctionRegistry({ baseDir });
  const progress = options.onProgress ?? (() => {});
  const warnings = [...catalog.warnings];

  // The source documents reach the judge too (as retrieved context): they are scanned like the content.
  const scanned = [
    { where: "the content", text },
    ...(options.documents ?? []).map((d) => ({ where: `source document ${d.name}`, text: d.text })),
  ];
  let humanReviewRequired = false;
  for (const { where, text: scannedText } of scanned) {
    for (const finding of scanForInjection(scannedText)) {
      humanReviewRequired = true;
      warnings.push(
        `possible prompt injection in ${where} (${finding.kind}): "${finding.excerpt}" — a human must review this result`,
      );
    }
  }

  const total = catalog.criteria.length;
  const index = new Map(catalog.criteria.map((c, i) => [c.id, i]));
  const at = (c: Criterion) => index.get(c.id) ?? 0;
  const llm = catalog.criteria.filter((c) => isLlmMethod(c.method));
  progress({ type: "start", total, llmCriteria: llm.length });

  const judged = new Map<string, JudgedCriterion>();
  const done = (criterion: Criterion, result: JudgedCriterion) => {
    judged.set(criterion.id, result);
    progress({
      type: "criterion_done",
      criterionId: criterion.id,
      index: at(criterion),
      total,
      outcome: result.outcome,
    });
  };

  for (const criterion of catalog.criteria) {
    if (isLlmMethod(criterion.method)) continue;
    progress({ type: "criterion_start", criterionId: criterion.id, index: at(criterion), total });
    const outcome = await runDeterministicCriterion(criterion, options.content, registry, baseDir);
    done(criterion, { outcome, notes: [], called: false });
  }

  const ctx: CriterionJudgeContext = {
    session,
    context: createContextProvider(options, settings.contextChunks),
    content: options.content,
    contentIsEmpty: text.trim() === "",
    contentType: options.contentType,
    catalogInstructions: catalog.instructions,
    evaluationPrompt: options.evaluationPrompt,
    structuredOutput: settings.structuredOutput,
  };
  let remaining: Criterion[] = llm;
  if (settings.mode === "batch" && llm.length > 0) {
    for (const criterion of llm) {
      progress({ type: "criterion_start", criterionId: criterion.id, index: at(criterion), total });
    }
    const batch = await judgeBatch(ctx, llm);
    warnings.push(...batch.notes.map((n) => `batch: ${n}`));
    for (const criterion of llm) {
      const result = batch.judged.get(criterion.id);
      if (result !== undefined) done(criterion, result);
    }
    remaining = batch.remaining;
  }
  const limit = pLimit(settings.concurrency);
  // Every started call settles before the evaluation ends (no call outlives it, every trace is
  // recorded); once the caller has aborted, queued criteria are not sent at all.
  const settled = await Promise.allSettled(
    remaining.map((criterion) =>
      limit(async () => {
        const { signal } = options;
        if (signal?.aborted) throw new ModelAbortedError({}, signal.reason);
        if (settings.mode !== "batch") {
          progress({
            type: "criterion_start",
            criterionId: criterion.id,
            index: at(criterion),
            total,
          });
        }
        done(criterion, await judgeCriterion(ctx, criterion));
      }),
    ),
  );
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (rejected !== undefined) throw rejected.reason;

  const failure = modelWideFailure(llm, judged);
  if (failure !== undefined) throw failure;

  const results = catalog.criteria.map((criterion) => {
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
  const score = scoreCatalogResult(catalog, results);
  warnings.push(...score.warnings);

  let { passed, status } = score;
  if (humanReviewRequired) {
    passed = false;
    if (status === "FUNDABLE") status = "REVIEW_REQUIRED";
  }
  const feedbackLists = collectFeedback(catalog, score.criteria);
  const base: EvaluationResult = {
    passed,
    timestamp: (options.now?.() ?? new Date()).toISOString(),
    evaluator: settings.evaluator,
    overallScore: score.overallScore,
    scores: score.scores,
    ...feedbackLists,
    feedback: deterministicSummary(catalog, { ...score, passed, status }),
    rawResponse: Object.fromEntries(
      catalog.criteria.flatMap((c) => {
        const raw = judged.get(c.id)?.raw;
        return raw === undefined ? [] : [[c.id, raw]];
      }),
    ),
    verdict: score.verdict,
    status,
    nativeTotal: score.nativeTotal,
    criteria: score.criteria,
    notEvaluated: score.notEvaluated,
    catalog: { id: catalog.id, version: catalog.version, name: catalog.name },
    model: session.traces.find((t) => t.error === undefined)?.model ?? session.modelSpec,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    warnings,
    traces: session.traces,
    humanReviewRequired,
  };
  if (settings.summary === "model") {
    base.feedback = await modelSummary(session, catalog.name, base);
  }
  base.usage = sumUsage(session.traces.map((t) => t.usage));
  await session.flush();
  const result = EvaluationResultSchema.parse(base);
  progress({ type: "done", passed: result.passed, overallScore: result.overallScore });
  return result;
}

/** seed 003: a model-written summary; the deterministic one stays when the model cannot answer. */
async function modelSummary(
  session: JudgeSession,
  catalogName: string,
  result: EvaluationResult,
): Promise<string> {
  try {
    const text = await session.call({
      purpose: "summary",
      criterionIds: [],
      system: SUMMARY_SYSTEM,
      user: summaryUserPrompt({
        catalogName,
        resultsToon: encodeResultsToon(result),
        strengths: result.strengths,
        weaknesses: result.weaknesses,
        suggestions: result.suggestions,
      }),
    });
    if (text.trim() !== "") return text.trim();
    result.warnings.push("summary: the model gave an empty summary; the deterministic one is kept");
  } catch (error) {
    if (error instanceof ModelAbortedError || !(error instanceof ModelCallError)) throw error;
    result.warnings.push(`summary: ${error.message}; the deterministic one is kept`);
  }
  return result.feedback;
}
