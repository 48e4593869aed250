import pLimit from "p-limit";
import { type Catalog, isLlmMethod } from "../criteria/model.js";
import { krippendorffAlpha } from "../scoring/agreement.js";
import { notEvaluatedOutcome } from "../scoring/criterionResult.js";
import type { CriterionPanel, PanelSummary } from "../scoring/panelResult.js";
import type { CriterionResult, JudgeMode } from "../scoring/result.js";
import type { JudgedCriterion } from "./criterionJudge.js";
import { isEvaluationModelError } from "./errors.js";
import { type CatalogJudging, judgeCatalog } from "./judgeCatalog.js";
import type { JudgeSession } from "./judgeSession.js";
import type { EvaluationProgress, PanelSettings } from "./options.js";
import { aggregatePanel, type MemberAnswer } from "./panelAggregate.js";

/** One judge of a panel: its name (the model spec) and its traced session. */
export interface PanelMember {
  name: string;
  session: JudgeSession;
}

/** What a panel's judging produced, beside the judged criteria. */
export interface PanelJudging {
  judged: Map<string, JudgedCriterion>;
  /** How the first member that answered was asked (per criterion, grouped, batch). */
  judgeMode: JudgeMode | undefined;
  panels: Map<string, CriterionPanel>;
  summary: PanelSummary;
  /** Why a human must review: a gap in the panel, or agreement under the minimum. */
  humanReview: string[];
  warnings: string[];
}

function withCriteria(catalog: Catalog, keep: (llm: boolean) => boolean): Catalog {
  return { ...catalog, criteria: catalog.criteria.filter((c) => keep(isLlmMethod(c.method))) };
}

/**
 * Progress for the whole panel: one start; a criterion starts with its first member and is done
 * when every member has answered it.
 */
function panelProgress(catalog: Catalog, members: number, report: (e: EvaluationProgress) => void) {
  const index = new Map(catalog.criteria.map((c, i) => [c.id, i]));
  const total = catalog.criteria.length;
  const started = new Set<string>();
  const answers = new Map<string, number>();
  return (weight: number) =>
    (event: EvaluationProgress): void => {
      if (event.type === "start" || event.type === "done") return;
      const at = { index: index.get(event.criterionId) ?? 0, total };
      if (event.type === "criterion_start") {
        if (started.has(event.criterionId)) return;
        started.add(event.criterionId);
        report({ ...event, ...at });
        return;
      }
      const count = (answers.get(event.criterionId) ?? 0) + weight;
      answers.set(event.criterionId, count);
      if (count >= members) report({ ...event, ...at });
    };
}

/** Every member's answers; a member whose every call failed is a gap on each criterion. */
async function judgeByMember(
  job: CatalogJudging,
  members: readonly PanelMember[],
  progress: (weight: number) => (e: EvaluationProgress) => void,
): Promise<{ byMember: Map<string, JudgedCriterion>[]; judgeMode: JudgeMode | undefined }> {
  const llmOnly = withCriteria(job.options.catalog, (llm) => llm);
  const limit = pLimit(job.settings.concurrency);
  const settled = await Promise.allSettled(
    members.map((member) =>
      judgeCatalog({
        ...job,
        session: member.session,
        limit,
        options: { ...job.options, catalog: llmOnly, onProgress: progress(1) },
      }),
    ),
  );
  const failures = settled.filter((s) => s.status === "rejected");
  const unexpected = failures.find((s) => !isEvaluationModelError(s.reason));
  if (unexpected !== undefined) throw unexpected.reason;
  if (failures.length === members.length) throw (failures[0] as PromiseRejectedResult).reason;
  const judgeMode = settled.find((s) => s.status === "fulfilled")?.value.judgeMode;
  const byMember = settled.map((s) => {
    if (s.status === "fulfilled") return s.value.judged;
    const modelError = isEvaluationModelError(s.reason) ? s.reason.modelError : undefined;
    const message = s.reason instanceof Error ? s.reason.message : String(s.reason);
    const outcome = notEvaluatedOutcome(`judge model error: ${message}`);
    return new Map(
      llmOnly.criteria.map((c) => [
        c.id,
        { outcome, notes: [], called: true, ...(modelError ? { modelError } : {}) },
      ]),
    );
  });
  return { byMember, judgeMode };
}

/** The review reasons and warnings of a panel: its gaps, and agreement under the minimum. */
function panelFindings(
  panels: Map<string, CriterionPanel>,
  overall: number | null,
  minAgreement: number | undefined,
): { humanReview: string[]; warnings: string[]; gaps: number } {
  const humanReview: string[] = [];
  const warnings: string[] = [];
  let gaps = 0;
  for (const [id, panel] of panels) {
    for (const answer of panel.answers.filter((a) => !a.evaluated)) {
      gaps++;
      warnings.push(
        `${id}: judge ${answer.judge} gave no answer (${answer.judgeError ?? "no reason given"})`,
      );
    }
    const missing = panel.answers.filter((a) => !a.evaluated).map((a) => a.judge);
    if (missing.length > 0 && missing.length < panel.answers.length) {
      humanReview.push(
        `criterion ${id}: the panel has a gap (${missing.join(", ")} gave no answer); ${panel.answers.length - missing.length} of ${panel.answers.length} judges decided it`,
      );
    }
    if (minAgreement !== undefined && panel.agreement !== null && panel.agreement < minAgreement) {
      const values = panel.answers
        .filter((a) => a.evaluated)
        .map((a) => `${a.judge} ${String(a.native)}`);
      humanReview.push(
        `criterion ${id}: the judges disagree (agreement ${panel.agreement} < ${minAgreement}: ${values.join(", ")})`,
      );
    }
  }
  if (minAgreement !== undefined && overall !== null && overall < minAgreement) {
    humanReview.push(
      `the judges disagree across the criteria (Krippendorff's alpha ${overall} < ${minAgreement})`,
    );
  }
  return { humanReview, warnings, gaps };
}

/**
 * Judges the catalog with a panel: deterministic criteria once, then every LLM criterion by each
 * member at once (sharing one concurrency limit). Each criterion's score is the aggregate of the
 * members' answers; every answer is kept; agreement is measured per criterion (on its scale) and
 * over the criteria (Krippendorff's alpha, interval on the 0–1 scores). A member that could not
 * answer is a gap that holds the result for review; agreement under `minAgreement` does too.
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
  const progress = panelProgress(catalog, members.length, report);
  const { judged: deterministic } = await judgeCatalog({
    ...job,
    options: {
      ...job.options,
      catalog: withCriteria(catalog, (l) => !l),
      onProgress: progress(members.length),
    },
  });
  const { byMember, judgeMode } = await judgeByMember(job, members, progress);
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
  const findings = panelFindings(panels, agreement, settings.minAgreement);
  const summary: PanelSummary = {
    judges: members.map((m) => m.name),
    aggregate: settings.aggregate,
    ...(settings.minAgreement === undefined ? {} : { minAgreement: settings.minAgreement }),
    agreement,
    gaps: findings.gaps,
  };
  return {
    judged,
    judgeMode,
    panels,
    summary,
    humanReview: findings.humanReview,
    warnings: findings.warnings,
  };
}

/** The criterion results with each panel criterion's answers and agreement. */
export function withPanels(
  results: readonly CriterionResult[],
  panels: ReadonlyMap<string, CriterionPanel>,
): CriterionResult[] {
  return results.map((r) => {
    const panel = panels.get(r.id);
    return panel === undefined ? r : { ...r, panel };
  });
}
