import type { Criterion } from "../criteria/model.js";
import type { JudgeMode } from "../scoring/result.js";
import type { JudgeSession } from "./judgeSession.js";
import type { EvaluateContentOptions, EvaluationMode, EvaluationSettings } from "./options.js";

/** What taking a share of a judge pool's slots looks at. */
interface PoolJob {
  options: Pick<EvaluateContentOptions, "concurrency">;
  settings: EvaluationSettings;
  session: JudgeSession;
}

/**
 * How the LLM criteria of one evaluation are put to the judge:
 *
 * - per-criterion: one call each, `concurrency` at a time;
 * - grouped: the criteria split into as many groups as the server has parallel slots, one TOON
 *   table call per group, the groups at once — the prompt savings of batch mode with the
 *   parallelism of per-criterion calls;
 * - batch: all of them in one call.
 *
 * `auto` (the default) picks grouped when every slot would get at least two criteria (each call
 * then pays its fixed cost and the shared content once for several answers), per-criterion
 * otherwise. A caller's own prompt template is a per-criterion prompt, so it keeps that mode.
 */
export interface JudgePlan {
  mode: JudgeMode["mode"];
  /** The criteria asked together, one group per call (empty in per-criterion mode). */
  groups: Criterion[][];
  /** Criteria asked one call each from the start. */
  single: Criterion[];
}

export interface JudgePlanInput {
  mode: EvaluationMode;
  /** The server's parallel slots: how many groups grouped mode makes. */
  slots: number;
  /** A caller's single-criterion prompt template is set. */
  hasPromptOverride: boolean;
}

/** A levels criterion with its own decode prompt is asked with that prompt, alone. */
function needsOwnPrompt(criterion: Criterion): boolean {
  return criterion.method.kind === "levels" && criterion.method.decodePrompt !== undefined;
}

/** `count` groups of consecutive criteria whose sizes differ by at most one (none empty). */
export function splitIntoGroups<T>(items: readonly T[], count: number): T[][] {
  const groups = Math.max(1, Math.min(count, items.length));
  const out: T[][] = [];
  let at = 0;
  for (let g = 0; g < groups; g += 1) {
    const size = Math.floor(items.length / groups) + (g < items.length % groups ? 1 : 0);
    out.push(items.slice(at, at + size));
    at += size;
  }
  return out.filter((group) => group.length > 0);
}

/** The mode `auto` stands for, given the criteria and the slots. */
function resolveMode(input: JudgePlanInput, groupable: number): JudgeMode["mode"] {
  if (input.mode !== "auto") return input.mode;
  if (input.hasPromptOverride) return "per-criterion";
  return groupable >= 2 * input.slots ? "grouped" : "per-criterion";
}

/** Which criteria go to the judge together and which alone. */
export function planJudging(llm: readonly Criterion[], input: JudgePlanInput): JudgePlan {
  const own = llm.filter(needsOwnPrompt);
  const groupable = llm.filter((c) => !needsOwnPrompt(c));
  const mode = resolveMode(input, groupable.length);
  switch (mode) {
    case "per-criterion":
      return { mode, groups: [], single: [...llm] };
    case "batch":
      return { mode, groups: llm.length === 0 ? [] : [[...llm]], single: [] };
    case "grouped":
      return { mode, groups: splitIntoGroups(groupable, input.slots), single: own };
  }
}

/** What the result says about the plan. */
export function judgeModeOf(plan: JudgePlan): JudgeMode {
  return { mode: plan.mode, groups: plan.groups.length };
}

/**
 * A judge over a pool of servers: when the caller set neither `concurrency` nor `parallelSlots`,
 * the evaluation takes as many calls at once as all the servers have slots, and makes as many
 * groups as its part of them (the pool's slots divided among the evaluations on it now: alone,
 * every slot of every server). Returns the job and the function that gives the part back.
 */
export async function withPoolShare<Job extends PoolJob>(
  job: Job,
): Promise<{ job: Job; leave(): void }> {
  const stay = { job, leave: () => {} };
  if (job.options.concurrency !== undefined || job.settings.parallelSlots !== undefined)
    return stay;
  const share = job.session.shareOfPool();
  if (share === undefined) return stay;
  try {
    const [total, mine] = await Promise.all([share.total, share.mine]);
    const concurrency = Math.min(256, Math.max(1, total));
    const parallelSlots = Math.min(concurrency, mine);
    return {
      job: { ...job, settings: { ...job.settings, concurrency, parallelSlots } },
      leave: share.leave,
    };
  } catch (error) {
    share.leave();
    throw error;
  }
}
