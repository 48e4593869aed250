import pLimit, { type LimitFunction } from "p-limit";
import { runFunctionCriterion } from "../checks/functionCriterion.js";
import type { FunctionRegistry } from "../checks/registry.js";
import { runSchemaCriterion } from "../checks/schemaCriterion.js";
import { type Catalog, type Criterion, isLlmMethod } from "../criteria/model.js";
import { createTemplateTimeBudget, type TemplateTimeBudget } from "../criteria/templateBudget.js";
import { ModelAbortedError } from "../llm/errors.js";
import { notEvaluatedOutcome, thresholdOf } from "../scoring/criterionResult.js";
import type { JudgeMode } from "../scoring/result.js";
import { judgeBatch } from "./batchJudge.js";
import {
  type CriterionJudgeContext,
  createContextProvider,
  type JudgedCriterion,
  judgeCriterion,
} from "./criterionJudge.js";
import { EvaluationModelError } from "./errors.js";
import type { FewShotPlan } from "./fewShotExamples.js";
import type { FoldedGuard, GuardScreen } from "./guardScreen.js";
import { planJudging, withPoolShare } from "./judgeMode.js";
import type { JudgeSession } from "./judgeSession.js";
import type { EvaluateContentOptions, EvaluationProgress, EvaluationSettings } from "./options.js";
import { schemaOnProject } from "./projectContent.js";

export interface CatalogJudging {
  options: EvaluateContentOptions;
  settings: EvaluationSettings;
  /** The content as text (as the judge sees it). */
  text: string;
  /** What the deterministic criteria read: the content, or a project's documents' text. */
  checked: unknown;
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

/** The criteria judged so far, each reported as it starts and as it is done. */
function judgedCriteria(catalog: Catalog, progress: (event: EvaluationProgress) => void) {
  const judged = new Map<string, JudgedCriterion>();
  const total = catalog.criteria.length;
  const at = (criterion: Criterion) => ({
    criterionId: criterion.id,
    index: catalog.criteria.findIndex((c) => c.id === criterion.id),
    total,
  });
  return {
    judged,
    started: (criterion: Criterion) => progress({ type: "criterion_start", ...at(criterion) }),
    done(criterion: Criterion, result: JudgedCriterion) {
      judged.set(criterion.id, result);
      progress({ type: "criterion_done", ...at(criterion), outcome: result.outcome });
    },
  };
}
type JudgedCriteria = ReturnType<typeof judgedCriteria>;

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
    const content = job.checked;
    const folder = job.options.projectFolder;
    const outcome =
      criterion.method.kind !== "schema"
        ? await runFunctionCriterion(criterion, content, job.registry)
        : folder !== undefined
          ? schemaOnProject(criterion, folder)
          : await runSchemaCriterion(criterion, content, { baseDir: job.baseDir });
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
    prompt: {
      content: options.content,
      contentType: options.contentType,
      question: options.question,
      referenceAnswer: options.referenceAnswer,
      catalogInstructions: options.catalog.instructions,
      catalogId: options.catalog.id,
      override: options.evaluationPrompt,
      answerLists: settings.answerLists,
      budget: job.templateBudget ?? createTemplateTimeBudget(),
    },
    // With a question, empty content is an empty answer to it: judged, not "insufficient".
    contentIsEmpty: job.text.trim() === "" && options.question === undefined,
    structuredOutput: settings.structuredOutput,
    fewShot: job.fewShot,
  };
}

/** Each item under the concurrency limit; once aborted, queued ones are not sent. */
async function eachLimited<T, R>(
  job: CatalogJudging,
  items: readonly T[],
  run: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const limit = job.limit ?? pLimit(job.settings.concurrency);
  const { signal } = job.options;
  const settled = await Promise.allSettled(
    items.map((item, index) =>
      limit(async () => {
        if (signal?.aborted) throw new ModelAbortedError({}, signal.reason);
        return run(item, index);
      }),
    ),
  );
  return fulfilledOrThrow(settled);
}

/** Each group in one call; returns the criteria no group answered, to be asked alone. */
async function runGroups(
  job: CatalogJudging,
  ctx: CriterionJudgeContext,
  groups: Criterion[][],
  criteria: JudgedCriteria,
  guard: FoldedGuard | undefined,
): Promise<Criterion[]> {
  const label =
    groups.length > 1 ? (i: number) => `group ${i + 1}/${groups.length}` : () => "batch";
  for (const criterion of groups.flat()) criteria.started(criterion);
  const remaining = await eachLimited(job, groups, async (group, i) => {
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
  });
  return remaining.flat();
}

/** The values once every call settled (none outlives the evaluation); else the first rejection. */
export function fulfilledOrThrow<T>(settled: readonly PromiseSettledResult<T>[]): T[] {
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (rejected !== undefined) throw rejected.reason;
  return settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
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
  // Each with the threshold it is met at, which a pass/fail word in its answer must agree with.
  const llm = catalog.criteria
    .filter((c) => isLlmMethod(c.method))
    .map((c) => ({ ...c, passingThreshold: thresholdOf(c, catalog) }));
  progress({ type: "start", total: catalog.criteria.length, llmCriteria: llm.length });
  const criteria = judgedCriteria(catalog, progress);
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
  // Every started call settles before the evaluation ends.
  await eachLimited(job, [...plan.single, ...unanswered], async (criterion) => {
    if (!grouped.has(criterion.id)) criteria.started(criterion);
    criteria.done(criterion, await judgeCriterion(ctx, criterion));
  });
  const modelFailure = modelWideFailure(llm, criteria.judged);
  return {
    judged: criteria.judged,
    judgeMode: llm.length === 0 ? undefined : { mode: plan.mode, groups: plan.groups.length },
    ...(modelFailure === undefined ? {} : { modelFailure }),
  };
}
