import pLimit from "p-limit";
import { type Catalog, isLlmMethod } from "../criteria/model.js";
import { createCallLane } from "../llm/callCeiling.js";
import type { JudgeModel } from "../llm/chatModel.js";
import { krippendorffAlpha } from "../scoring/agreement.js";
import type {
  CriterionOutcome,
  CriterionPanel,
  CriterionResult,
  JudgeMode,
  PanelSummary,
} from "../scoring/result.js";
import type { JudgedCriterion } from "./criterionJudge.js";
import { type EvaluationModelError, parseInput } from "./errors.js";
import { judgeCallCacheFor } from "./judgeCache.js";
import { type CatalogJudging, fulfilledOrThrow, judgeCatalog } from "./judgeCatalog.js";
import { isJudgeModel, JudgeSession, resolveJudgeModel } from "./judgeSession.js";
import {
  type EvaluateContentOptions,
  type EvaluationProgress,
  type EvaluationSettings,
  type PanelSettings,
  PanelSettingsSchema,
  panelChoice,
} from "./options.js";
import { aggregatePanel, type MemberAnswer } from "./panelAggregate.js";

/** One judge of a panel: its name (the model spec) and its traced session. */
interface PanelMember {
  name: string;
  session: JudgeSession;
}

/** Who judges: one session, or a panel of members (the first member's session is the main one). */
export interface Judging {
  session: JudgeSession;
  members: PanelMember[];
  panel: PanelSettings;
}

/** `model` alone, or each of `judges`; every judge is built (its spec checked) before any call. */
export function judgingOf(options: EvaluateContentOptions, settings: EvaluationSettings): Judging {
  const panel = parseInput(PanelSettingsSchema, panelChoice(options).panel ?? {}, "panel option");
  const { traceFile, signal, catalog } = options;
  const traced = { traceFile, signal, registryVersion: catalog.registryVersion };
  if (options.model === null && !options.judges?.length) {
    const session = new JudgeSession(undefined, traced);
    return { session, members: [{ name: session.modelSpec, session }], panel };
  }
  const sources = options.judges?.length ? options.judges : [options.model ?? undefined];
  // One lane for the whole evaluation: its calls take turns with other evaluations' at a server.
  const lane = createCallLane("evaluation");
  const judges = sources.map((source) =>
    resolveJudgeModel(
      source,
      { timeoutMs: options.timeoutMs ?? (isJudgeModel(source) ? undefined : settings.timeoutMs) },
      lane,
    ),
  );
  const [first, ...others] = judges as [JudgeModel, ...JudgeModel[]];
  const cacheOf = (judge: JudgeModel) => judgeCallCacheFor(options.cache, judge, options.now);
  const session = new JudgeSession(first, { ...traced, cache: cacheOf(first) });
  const sessions = [session, ...others.map((judge) => session.forJudge(judge, cacheOf(judge)))];
  return { session, members: sessions.map((s) => ({ name: s.modelSpec, session: s })), panel };
}

interface PanelJudging {
  judged: Map<string, JudgedCriterion>;
  /** How the first member that answered was asked. */
  judgeMode: JudgeMode | undefined;
  /** Set when no member's model call succeeded at all. */
  modelFailure?: EvaluationModelError;
  panels: Map<string, CriterionPanel>;
  summary: PanelSummary;
  warnings: string[];
}

function withCriteria(catalog: Catalog, keep: (llm: boolean) => boolean): Catalog {
  return { ...catalog, criteria: catalog.criteria.filter((c) => keep(isLlmMethod(c.method))) };
}

/**
 * A criterion starts with its first member and is done when every member has answered it; its
 * done event carries the panel's aggregate, not the last member's answer.
 */
function panelProgress(
  catalog: Catalog,
  members: readonly PanelMember[],
  settings: PanelSettings,
  report: (e: EvaluationProgress) => void,
) {
  const index = new Map(catalog.criteria.map((c, i) => [c.id, i]));
  const total = catalog.criteria.length;
  const started = new Set<string>();
  const answers = new Map<string, CriterionOutcome[]>();
  /** `member` is the index of the member answering; undefined for a deterministic criterion. */
  return (member?: number) =>
    (event: EvaluationProgress): void => {
      if (event.type === "start" || event.type === "done") return;
      const at = { index: index.get(event.criterionId) ?? 0, total };
      if (event.type === "criterion_start") {
        if (started.has(event.criterionId)) return;
        started.add(event.criterionId);
        report({ ...event, ...at });
        return;
      }
      const criterion = catalog.criteria[at.index];
      if (member === undefined || criterion === undefined) {
        report({ ...event, ...at });
        return;
      }
      const given = answers.get(event.criterionId) ?? [];
      given[member] = event.outcome;
      answers.set(event.criterionId, given);
      if (given.filter(Boolean).length < members.length) return;
      const memberAnswers = members.map((m, i) => ({
        judge: m.name,
        judged: { outcome: given[i] as CriterionOutcome, notes: [], called: true },
      }));
      const { outcome } = aggregatePanel(criterion, memberAnswers, settings.aggregate).judged;
      report({ ...event, ...at, outcome });
    };
}

/** Every member's answers; when every member failed, the first one's failure is the panel's. */
async function judgeByMember(
  job: CatalogJudging,
  members: readonly PanelMember[],
  progress: (member?: number) => (e: EvaluationProgress) => void,
) {
  const llmOnly = withCriteria(job.options.catalog, (llm) => llm);
  const limit = pLimit(job.settings.concurrency);
  // Each member's notes on its judging ("batch: …") name the member.
  const notes = members.map((): string[] => []);
  const judgements = fulfilledOrThrow(
    await Promise.allSettled(
      members.map((member, i) =>
        judgeCatalog({
          ...job,
          session: member.session,
          limit,
          warnings: notes[i] as string[],
          options: { ...job.options, catalog: llmOnly, onProgress: progress(i) },
        }),
      ),
    ),
  );
  job.warnings.push(
    ...members.flatMap((m, i) => (notes[i] ?? []).map((n) => `judge ${m.name}: ${n}`)),
  );
  const failed = judgements.filter((j) => j.modelFailure !== undefined);
  return {
    byMember: judgements.map((j) => j.judged),
    judgeMode: judgements.find((j) => j.modelFailure === undefined)?.judgeMode,
    ...(failed.length === members.length ? { modelFailure: failed[0]?.modelFailure } : {}),
  };
}

/** One warning per answer a member could not give: the panel's gaps (the reason stays in the answer). */
function panelGaps(panels: Map<string, CriterionPanel>): string[] {
  return [...panels].flatMap(([id, panel]) =>
    panel.answers.filter((a) => !a.evaluated).map((a) => `${id}: judge ${a.judge} gave no answer`),
  );
}

/**
 * Deterministic criteria once, then every LLM criterion by each member (one shared concurrency
 * limit); the aggregate is the score, agreement measured per criterion and over the criteria.
 */
export async function judgeWithPanel(
  job: CatalogJudging,
  members: readonly PanelMember[],
  settings: PanelSettings,
): Promise<PanelJudging> {
  const { catalog } = job.options;
  const report = job.options.onProgress ?? (() => {});
  const llm = catalog.criteria.filter((c) => isLlmMethod(c.method));
  report({ type: "start", total: catalog.criteria.length, llmCriteria: llm.length });
  const progress = panelProgress(catalog, members, settings, report);
  const { judged: deterministic } = await judgeCatalog({
    ...job,
    options: {
      ...job.options,
      catalog: withCriteria(catalog, (l) => !l),
      onProgress: progress(),
    },
  });
  const { byMember, judgeMode, modelFailure } = await judgeByMember(job, members, progress);
  const judged = new Map(deterministic);
  const panels = new Map<string, CriterionPanel>();
  for (const criterion of llm) {
    const answers: MemberAnswer[] = members.map((m, i) => {
      const found = byMember[i]?.get(criterion.id);
      if (found === undefined) throw new Error(`internal: ${m.name} did not judge ${criterion.id}`);
      return { judge: m.name, judged: found };
    });
    const aggregated = aggregatePanel(criterion, answers, settings.aggregate);
    judged.set(criterion.id, aggregated.judged);
    panels.set(criterion.id, aggregated.panel);
  }
  const units = [...panels.values()].map((p) =>
    p.answers.map((a) => (a.evaluated ? a.score : null)),
  );
  const agreement = krippendorffAlpha(units, "interval");
  const gaps = panelGaps(panels);
  const summary: PanelSummary = {
    judges: members.map((m) => m.name),
    aggregate: settings.aggregate,
    ...(settings.minAgreement === undefined ? {} : { minAgreement: settings.minAgreement }),
    agreement,
    gaps: gaps.length,
  };
  return {
    judged,
    judgeMode,
    ...(modelFailure === undefined ? {} : { modelFailure }),
    panels,
    summary,
    warnings: gaps,
  };
}

export function withPanels(
  results: readonly CriterionResult[],
  panels: ReadonlyMap<string, CriterionPanel>,
): CriterionResult[] {
  return results.map((r) => {
    const panel = panels.get(r.id);
    return panel === undefined ? r : { ...r, panel };
  });
}
