import type { Criterion } from "../criteria/model.js";
import type { JudgeMode } from "../scoring/result.js";
import type { JudgeSession } from "./judgeSession.js";
import type { EvaluateContentOptions, EvaluationMode, EvaluationSettings } from "./options.js";

interface PoolJob {
  options: Pick<EvaluateContentOptions, "concurrency">;
  settings: EvaluationSettings;
  session: JudgeSession;
}

/**
 * How the LLM criteria are put to the judge. Grouped (one TOON table call per server slot, at
 * once) gives batch mode's prompt savings with per-criterion parallelism; `auto` picks it when
 * every slot gets at least two criteria, each call then paying its fixed cost once for several.
 */
interface JudgePlan {
  mode: JudgeMode["mode"];
  /** The criteria asked together, one group per call (empty in per-criterion mode). */
  groups: Criterion[][];
  single: Criterion[];
}

interface JudgePlanInput {
  mode: EvaluationMode;
  /** How many groups grouped mode makes. */
  slots: number;
  /** A per-criterion prompt (template, examples, weighting) keeps per-criterion mode. */
  hasPromptOverride: boolean;
}

/** A levels criterion with its own decode prompt is asked with that prompt, alone. */
function needsOwnPrompt(criterion: Criterion): boolean {
  return criterion.method.kind === "levels" && criterion.method.decodePrompt !== undefined;
}

/** `count` groups of consecutive criteria whose sizes differ by at most one (none empty). */
function splitIntoGroups<T>(items: readonly T[], count: number): T[][] {
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

function resolveMode(input: JudgePlanInput, groupable: number): JudgeMode["mode"] {
  if (input.mode !== "auto") return input.mode;
  if (input.hasPromptOverride) return "per-criterion";
  return groupable >= 2 * input.slots ? "grouped" : "per-criterion";
}

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

/**
 * On a judge pool, unless the caller set `concurrency` or `parallelSlots`: as many calls at once
 * as the pool has slots, and as many groups as this evaluation's share of them.
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
