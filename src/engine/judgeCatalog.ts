import pLimit, { type LimitFunction } from "p-limit";
import { runFunctionCriterion } from "../checks/functionCriterion.js";
import type { FunctionRegistry } from "../checks/registry.js";
import { runSchemaCriterion } from "../checks/schemaCriterion.js";
import { type Catalog, type Criterion, isLlmMethod } from "../criteria/model.js";
import { createTemplateTimeBudget, type TemplateTimeBudget } from "../criteria/templateBudget.js";
import { ModelAbortedError } from "../llm/errors.js";
import { notEvaluatedOutcome } from "../scoring/criterionResult.js";
import type { JudgeMode } from "../scoring/result.js";
import { judgeBatch } from "./batchJudge.js";
import { createContextProvider } from "./contextProvider.js";
import {
  type CriterionJudgeContext,
  type JudgedCriterion,
  judgeCriterion,
} from "./criterionJudge.js";
import { EvaluationModelError } from "./errors.js";
import type { FewShotPlan } from "./fewShotExamples.js";
import type { FoldedGuard, GuardScreen } from "./guardScreen.js";
import { judgeModeOf, planJudging, withPoolShare } from "./judgeMode.js";
import type { JudgeSession } from "./judgeSession.js";
import type { EvaluateContentOptions, EvaluationProgress, EvaluationSettings } from "./options.js";

export interface CatalogJudging {
  options: EvaluateContentOptions;
  settings: EvaluationSettings;
  /** The content as text (as the judge sees it). */
  text: string;
  session: JudgeSession;
  registry: FunctionRegistry;
  baseDir: string;
  warnings: string[];
  /** A limit shared with other judges (a panel's members); else `concurrency` for this one. */
  limit?: LimitFunction;
  /** Started here beside the judging; its content question rides in the last group's call. */
  guard?: GuardScreen;
  fewShot?: FewShotPlan;
  templateBudget?: TemplateTimeBudget;
}

class JudgedCriteria {
  readonly judged = new Map<string, JudgedCriterion>();
  private readonly index: Map<string, number>;
  private readonly total: number;

  constructor(
    catalog: Catalog,
    private readonly progress: (event: EvaluationProgress) => void,
  ) {
    this.index = new Map(catalog.criteria.map((c, i) => [c.id, i]));
    this.total = catalog.criteria.length;
  }

  started(criterion: Criterion): void {
    const { total } = this;
    this.progress({
      type: "criterion_start",
      criterionId: criterion.id,
      index: this.at(criterion),
      total,
    });
  }

  done(criterion: Criterion, result: JudgedCriterion): void {
    this.judged.set(criterion.id, result);
    this.progress({
      type: "criterion_done",
      criterionId: criterion.id,
      index: this.at(criterion),
      total: this.total,
      outcome: result.outcome,
    });
  }

  private at(criterion: Criterion): number {
    return this.index.get(criterion.id) ?? 0;
  }
}

export const NO_JUDGE_NOTE = "no judge model was given: an LLM-judged criterion needs one";

/** A model error when every model call failed. */
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

async function runDeterministic(job: CatalogJudging, criteria: JudgedCriteria): Promise<void> {
  for (const criterion of job.options.catalog.criteria) {
    if (isLlmMethod(criterion.method)) continue;
    criteria.started(criterion);
    const { content } = job.options;
    const outcome =
      criterion.method.kind === "schema"
        ? await runSchemaCriterion(criterion, content, { baseDir: job.baseDir })
        : await runFunctionCriterion(criterion, content, job.registry);
    criteria.done(criterion, { outcome, notes: [], called: false });
  }
}

function weightedScoresOf(options: EvaluateContentOptions): boolean {
  return options.weightedScores ?? options.catalog.weightedScores ?? false;
}

/** A score criterion answered in a group's answer, with weighting asked: plain, and why. */
function groupAnswerWeighting(
  ctx: CriterionJudgeContext,
  criterion: Criterion,
  result: JudgedCriterion,
) {
  if (ctx.weightedScores !== true || criterion.method.kind !== "score") return result;
  if (!result.outcome.evaluated) return result;
  const reason = "batched answer: several criteria's scores share one answer";
  return {
    ...result,
    outcome: { ...result.outcome, scoreMethod: "plain" as const, scoreMethodReason: reason },
  };
}

function judgeContext(job: CatalogJudging): CriterionJudgeContext {
  const { options, settings } = job;
  return {
    weightedScores: weightedScoresOf(options),
    session: job.session,
    context: createContextProvider(options, settings.contextChunks),
    content: options.content,
    // With a question, empty content is an empty answer to it: judged, not "insufficient".
    contentIsEmpty: job.text.trim() === "" && options.question === undefined,
    contentType: options.contentType,
    question: options.question,
    referenceAnswer: options.referenceAnswer,
    catalogInstructions: options.catalog.instructions,
    catalogId: options.catalog.id,
    evaluationPrompt: options.evaluationPrompt,
    structuredOutput: settings.structuredOutput,
    answerLists: settings.answerLists,
    templateBudget: job.templateBudget ?? createTemplateTimeBudget(),
    fewShot: job.fewShot,
  };
}

/** Each group in one call; returns the criteria no group answered, to be asked alone. */
async function runGroups(
  job: CatalogJudging,
  ctx: CriterionJudgeContext,
  groups: Criterion[][],
  criteria: JudgedCriteria,
  guard: FoldedGuard | undefined,
): Promise<Criterion[]> {
  const limit = job.limit ?? pLimit(job.settings.concurrency);
  const { signal } = job.options;
  const label =
    groups.length > 1 ? (i: number) => `group ${i + 1}/${groups.length}` : () => "batch";
  for (const criterion of groups.flat()) criteria.started(criterion);
  const settled = await Promise.allSettled(
    groups.map((group, i) =>
      limit(async () => {
        if (signal?.aborted) throw new ModelAbortedError({}, signal.reason);
        // The last group is the smallest: it carries the guard's question.
        const batch = await judgeBatch(ctx, group, i === groups.length - 1 ? guard : undefined);
        job.warnings.push(...batch.notes.map((n) => `${label(i)}: ${n}`));
        for (const criterion of group) {
          const result = batch.judged.get(criterion.id);
          if (result !== undefined) {
            criteria.done(criterion, groupAnswerWeighting(ctx, criterion, result));
          }
        }
        return batch.remaining;
      }),
    ),
  );
  return fulfilledOrThrow(settled).flat();
}

/** The values once every call settled (none outlives the evaluation); else the first rejection. */
export function fulfilledOrThrow<T>(settled: readonly PromiseSettledResult<T>[]): T[] {
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (rejected !== undefined) throw rejected.reason;
  return settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
}

/** Every started call settles before the evaluation ends; once aborted, queued ones are not sent. */
async function runSingleCalls(
  job: CatalogJudging,
  ctx: CriterionJudgeContext,
  remaining: Criterion[],
  criteria: JudgedCriteria,
  alreadyStarted: ReadonlySet<string>,
): Promise<void> {
  const limit = job.limit ?? pLimit(job.settings.concurrency);
  const { signal } = job.options;
  const settled = await Promise.allSettled(
    remaining.map((criterion) =>
      limit(async () => {
        if (signal?.aborted) throw new ModelAbortedError({}, signal.reason);
        if (!alreadyStarted.has(criterion.id)) criteria.started(criterion);
        criteria.done(criterion, await judgeCriterion(ctx, criterion));
      }),
    ),
  );
  fulfilledOrThrow(settled);
}

interface CatalogJudgement {
  judged: Map<string, JudgedCriterion>;
  /** Undefined when the catalog has no LLM criterion. */
  judgeMode: JudgeMode | undefined;
  /** Set when no model call succeeded at all. */
  modelFailure?: EvaluationModelError;
}

/** Judges the deterministic criteria, then the LLM ones as planJudging says. */
export async function judgeCatalog(given: CatalogJudging): Promise<CatalogJudgement> {
  const { job, leave } = await withPoolShare(given);
  try {
    return await judgeAll(job);
  } finally {
    leave();
  }
}

async function judgeAll(job: CatalogJudging): Promise<CatalogJudgement> {
  const { catalog } = job.options;
  const progress = job.options.onProgress ?? (() => {});
  const llm = catalog.criteria.filter((c) => isLlmMethod(c.method));
  progress({ type: "start", total: catalog.criteria.length, llmCriteria: llm.length });
  const criteria = new JudgedCriteria(catalog, progress);
  const plan = planJudging(llm, {
    mode: job.settings.mode,
    slots: job.settings.parallelSlots ?? job.settings.concurrency,
    // Examples are a criterion's own, and a weighted score needs its answer to itself: with
    // either, auto asks one call per criterion.
    hasPromptOverride:
      job.options.evaluationPrompt !== undefined ||
      (job.fewShot?.size ?? 0) > 0 ||
      weightedScoresOf(job.options),
  });
  // The guard's calls go first, beside everything else.
  const guard = job.guard?.start(plan.groups.length > 0 ? "the content" : undefined);
  await runDeterministic(job, criteria);
  if (!job.session.hasJudge) {
    for (const criterion of llm) {
      const outcome = notEvaluatedOutcome(NO_JUDGE_NOTE);
      criteria.done(criterion, { outcome, notes: [NO_JUDGE_NOTE], called: false });
    }
    return { judged: criteria.judged, judgeMode: undefined };
  }
  const ctx = judgeContext(job);
  const grouped = new Set(plan.groups.flat().map((c) => c.id));
  const unanswered = await runGroups(job, ctx, plan.groups, criteria, guard);
  await runSingleCalls(job, ctx, [...plan.single, ...unanswered], criteria, grouped);
  const modelFailure = modelWideFailure(llm, criteria.judged);
  return {
    judged: criteria.judged,
    judgeMode: llm.length === 0 ? undefined : judgeModeOf(plan),
    ...(modelFailure === undefined ? {} : { modelFailure }),
  };
}
