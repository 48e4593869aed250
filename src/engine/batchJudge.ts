import type { BaseMessageLike } from "@langchain/core/messages";
import { batchRepairPrompt } from "../../prompts/evaluation/index.js";
import type { Criterion } from "../criteria/model.js";
import { toOutcome } from "../judge/answer.js";
import { parseBatchResponse } from "../judge/parseBatch.js";
import { renderBatchPrompt } from "../judge/renderBatch.js";
import {
  type CriterionJudgeContext,
  contextOrInsufficient,
  type JudgedCriterion,
} from "./criterionJudge.js";
import { judgeCallError } from "./errors.js";
import type { FoldedGuard } from "./guardScreen.js";
import type { JudgeCall } from "./judgeSession.js";

interface BatchJudgement {
  /** Criteria the batch (or its repair round) answered, and those with no context. */
  judged: Map<string, JudgedCriterion>;
  /** Criteria still without a usable answer, to be asked alone. */
  remaining: Criterion[];
  notes: string[];
}

type BatchAnswers = ReturnType<typeof parseBatchResponse>["answers"];

function servesAll(answers: BatchAnswers, criteria: readonly Criterion[]): boolean {
  return criteria.every((c) => answers.get(c.id)?.usable === true);
}

/** The whole batch from the cache, when its answer serves every criterion (and the guard). */
async function answerFromCache(
  ctx: CriterionJudgeContext,
  call: JudgeCall,
  askable: readonly Criterion[],
  judged: Map<string, JudgedCriterion>,
  guard: FoldedGuard | undefined,
): Promise<boolean> {
  const kept = await ctx.session.recall(
    call,
    (text) =>
      servesAll(parseBatchResponse(text, askable).answers, askable) &&
      (guard === undefined || guard.isClean(text)),
  );
  if (kept === undefined) return false;
  guard?.answered(kept);
  for (const [id, answer] of parseBatchResponse(kept, askable).answers) {
    const outcome = toOutcome(answer);
    judged.set(id, { outcome, raw: kept, notes: answer.notes, called: false, cached: true });
  }
  return true;
}

/** The criteria to ask; those with no context are answered Insufficient Information into `judged`. */
async function askableCriteria(
  ctx: CriterionJudgeContext,
  criteria: readonly Criterion[],
  judged: Map<string, JudgedCriterion>,
): Promise<Criterion[]> {
  const askable: Criterion[] = [];
  for (const criterion of criteria) {
    const found = await contextOrInsufficient(ctx, criterion);
    if ("insufficient" in found) judged.set(criterion.id, found.insufficient);
    else askable.push(criterion);
  }
  return askable;
}

function acceptAnswers(judged: Map<string, JudgedCriterion>, raw: string, answers: BatchAnswers) {
  for (const [id, answer] of answers) {
    if (!judged.has(id)) {
      judged.set(id, { outcome: toOutcome(answer), raw, notes: answer.notes, called: true });
    }
  }
}

function repairProblem(
  parsed: ReturnType<typeof parseBatchResponse>,
  missing: readonly Criterion[],
): string {
  if (parsed.problem !== undefined) return parsed.problem;
  return [
    ...parsed.ambiguities.map((a) => `${a}; give one row per criterion`),
    `no usable row for ${missing.map((c) => c.id).join(", ")}`,
  ].join("; ");
}

/**
 * The criteria in one call answered as a TOON table, one repair round for what is missing, the
 * rest left for per-criterion calls. With `guard`, the call carries the guard's question too.
 */
export async function judgeBatch(
  ctx: CriterionJudgeContext,
  criteria: readonly Criterion[],
  guard?: FoldedGuard,
): Promise<BatchJudgement> {
  const judged = new Map<string, JudgedCriterion>();
  const notes: string[] = [];
  const askable = await askableCriteria(ctx, criteria, judged);
  if (askable.length === 0) return { judged, remaining: [], notes };

  const prompt = renderBatchPrompt({
    ...ctx.prompt,
    criteria: askable,
    context: await ctx.context.contextForAll(askable),
    screenContent: guard !== undefined,
  });
  const ids = askable.map((c) => c.id);
  const batchCall = { purpose: "batch" as const, criterionIds: ids, system: prompt.system };
  if (await answerFromCache(ctx, { ...batchCall, user: prompt.user }, askable, judged, guard)) {
    return { judged, remaining: [], notes };
  }
  const ask = async (user: string, history?: BaseMessageLike[]) => {
    try {
      const purpose = history === undefined ? "batch" : "repair";
      // An answer that answers no criterion could not be used: a pool asks another server.
      const usable = (text: string) =>
        [...parseBatchResponse(text, askable).answers.values()].some((a) => a.usable);
      return await ctx.session.call({ ...batchCall, purpose, user, history, usable });
    } catch (error) {
      const modelError = judgeCallError(error);
      if (history === undefined) guard?.failed(modelError);
      // The model's error text (it may name the server) stays in the call's trace.
      notes.push(`batch call failed (${modelError.code}); asking per criterion`);
      return undefined;
    }
  };

  const first = await ask(prompt.user);
  if (first === undefined) return { judged, remaining: askable, notes };
  guard?.answered(first);
  const parsed = parseBatchResponse(first, askable);
  notes.push(...parsed.notes);
  acceptAnswers(judged, first, parsed.answers);
  // Kept only when the one answer served every criterion.
  if (servesAll(parsed.answers, askable) && (guard === undefined || guard.isClean(first))) {
    await ctx.session.remember({ ...batchCall, user: prompt.user }, first);
  }

  let missing = askable.filter((c) => !judged.has(c.id));
  if (missing.length > 0) {
    const problem = repairProblem(parsed, missing);
    notes.push(`batch answer incomplete (${problem}); one repair round`);
    const repaired = await ask(
      batchRepairPrompt(
        problem,
        missing.map((c) => c.id),
      ),
      [
        ["human", prompt.user],
        ["ai", first],
      ],
    );
    if (repaired !== undefined) {
      const again = parseBatchResponse(repaired, missing);
      notes.push(...again.notes);
      acceptAnswers(judged, repaired, again.answers);
      missing = askable.filter((c) => !judged.has(c.id));
    }
  }
  if (missing.length > 0) {
    notes.push(`asking per criterion for: ${missing.map((c) => c.id).join(", ")}`);
  }
  return { judged, remaining: missing, notes };
}
