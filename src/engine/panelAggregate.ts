import type { Criterion, Level } from "../criteria/model.js";
import { type AgreementScale, scaleAgreement } from "../scoring/agreement.js";
import { notEvaluatedOutcome } from "../scoring/criterionResult.js";
import type {
  CriterionOutcome,
  CriterionPanel,
  PanelAggregate,
  PanelAnswer,
} from "../scoring/result.js";
import { roundScore } from "../scoring/scale.js";
import type { JudgedCriterion } from "./criterionJudge.js";

export interface MemberAnswer {
  judge: string;
  judged: JudgedCriterion;
}

interface Category {
  native: string;
  score: number;
  level?: string;
}

/** The categories of a check or levels criterion, lowest score first; undefined for numeric ones. */
function categoriesOf(criterion: Criterion): Category[] | undefined {
  const { method } = criterion;
  if (method.kind === "check") {
    return [
      { native: "fail", score: 0 },
      { native: "pass", score: 1 },
    ];
  }
  if (method.kind === "levels") {
    return [...method.levels]
      .sort((a: Level, b: Level) => a.score - b.score)
      .map((l) => ({ native: l.id, score: l.score, level: l.id }));
  }
  return undefined;
}

function agreementScale(criterion: Criterion): {
  scale: AgreementScale;
  valueOnScale: (o: CriterionOutcome) => number;
} {
  const { method } = criterion;
  const categories = categoriesOf(criterion);
  if (categories !== undefined) {
    // A check's fail and pass are categories without an order; levels are ranked.
    const metric = method.kind === "check" ? "nominal" : "ordinal";
    return {
      scale: { kind: "points", points: categories.map((_, i) => i), metric },
      valueOnScale: (o) => categories.findIndex((c) => c.native === o.native),
    };
  }
  if (method.kind === "score" && method.scale.integer) {
    const { min, max } = method.scale;
    const points = Array.from({ length: Math.floor(max - min) + 1 }, (_, i) => min + i);
    return {
      scale: { kind: "points", points, metric: "interval" },
      valueOnScale: (o) => Number(o.native),
    };
  }
  return { scale: { kind: "range", min: 0, max: 1 }, valueOnScale: (o) => o.score ?? 0 };
}

function median(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid] as number;
  return ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The most frequent value; a tie goes to the lowest (the cautious choice). */
function mode(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const most = Math.max(...counts.values());
  return Math.min(...[...counts].filter(([, c]) => c === most).map(([v]) => v));
}

function numericScore(scores: readonly number[], aggregate: PanelAggregate): number {
  const sorted = [...scores].sort((a, b) => a - b);
  if (aggregate === "mean") return sorted.reduce((a, b) => a + b, 0) / sorted.length;
  if (aggregate === "median") return median(sorted);
  return mode(sorted);
}

/** A categorical aggregate is a value of the scale; a tie goes lower (the cautious choice). */
function categoricalIndex(
  ranks: readonly number[],
  categories: readonly Category[],
  aggregate: PanelAggregate,
): number {
  const sorted = [...ranks].sort((a, b) => a - b);
  if (aggregate === "median") return sorted[Math.floor((sorted.length - 1) / 2)] as number;
  if (aggregate === "majority") return mode(sorted);
  const mean = sorted.reduce((a, r) => a + (categories[r]?.score ?? 0), 0) / sorted.length;
  let best = 0;
  categories.forEach((c, i) => {
    if (Math.abs(c.score - mean) < Math.abs((categories[best]?.score ?? 0) - mean) - 1e-9) best = i;
  });
  return best;
}

function aggregateValue(
  criterion: Criterion,
  outcomes: readonly CriterionOutcome[],
  aggregate: PanelAggregate,
): { score: number; native: number | string; level?: string } {
  const categories = categoriesOf(criterion);
  if (categories !== undefined) {
    const ranks = outcomes.map((o) => categories.findIndex((c) => c.native === o.native));
    const chosen = categories[categoricalIndex(ranks, categories, aggregate)] as Category;
    return {
      score: chosen.score,
      native: chosen.native,
      ...(chosen.level ? { level: chosen.level } : {}),
    };
  }
  const unit = numericScore(
    outcomes.map((o) => o.score ?? 0),
    aggregate,
  );
  const scale = criterion.method.kind === "score" ? criterion.method.scale : { min: 0, max: 1 };
  // The native value of a mean or median may fall between the scale's points (3.6667 on 1–5).
  const native = roundScore(scale.min + unit * (scale.max - scale.min), 4);
  return { score: roundScore(unit), native };
}

function panelAnswer(member: MemberAnswer): PanelAnswer {
  const { outcome } = member.judged;
  return {
    judge: member.judge,
    evaluated: outcome.evaluated,
    score: outcome.score,
    native: outcome.native,
    reasoning: outcome.reasoning,
    ...(outcome.judgeError === undefined ? {} : { judgeError: outcome.judgeError }),
  };
}

/** A panel's answers as one judged criterion, reasoned by the member closest to the aggregate. */
export function aggregatePanel(
  criterion: Criterion,
  members: readonly MemberAnswer[],
  aggregate: PanelAggregate,
): { judged: JudgedCriterion; panel: CriterionPanel } {
  const answered = members.filter((m) => m.judged.outcome.evaluated);
  const { scale, valueOnScale } = agreementScale(criterion);
  const panel: CriterionPanel = {
    answers: members.map(panelAnswer),
    aggregate,
    agreement: scaleAgreement(
      answered.map((m) => valueOnScale(m.judged.outcome)),
      scale,
    ),
    metric: scale.kind === "range" ? "interval" : scale.metric,
  };
  const memberQuotes = members.flatMap((m) =>
    (m.judged.outcome.quotes ?? []).map((text) => ({ judge: m.judge, text })),
  );
  const notes = members.flatMap((m) => m.judged.notes.map((n) => `judge ${m.judge}: ${n}`));
  const called = members.some((m) => m.judged.called);
  const memberCacheHits = members.filter((m) => m.judged.cached === true).length;
  if (answered.length === 0) {
    const errors = members.map((m) => `${m.judge}: ${m.judged.outcome.judgeError ?? "no answer"}`);
    const outcome = notEvaluatedOutcome(
      `no judge of the panel could answer (${errors.join("; ")})`,
    );
    const modelError = members.every((m) => m.judged.modelError !== undefined)
      ? members[0]?.judged.modelError
      : undefined;
    return {
      judged: { outcome, notes, called, memberCacheHits, ...(modelError ? { modelError } : {}) },
      panel,
    };
  }
  const value = aggregateValue(
    criterion,
    answered.map((m) => m.judged.outcome),
    aggregate,
  );
  const closest = [...answered].sort(
    (a, b) =>
      Math.abs((a.judged.outcome.score ?? 0) - value.score) -
      Math.abs((b.judged.outcome.score ?? 0) - value.score),
  )[0] as MemberAnswer;
  const listed = members
    .map(
      (m) =>
        `${m.judge} ${m.judged.outcome.evaluated ? String(m.judged.outcome.native) : "no answer"}`,
    )
    .join(", ");
  const outcome: CriterionOutcome = {
    evaluated: true,
    score: value.score,
    native: value.native,
    ...(value.level === undefined ? {} : { level: value.level }),
    reasoning: `Panel ${aggregate} of ${answered.length} of ${members.length} judges (${listed}). ${closest.judge}: ${closest.judged.outcome.reasoning}`,
    hits: closest.judged.outcome.hits,
    misses: closest.judged.outcome.misses,
    evidence: [],
  };
  return {
    judged: { outcome, notes, called, memberQuotes, memberCacheHits, raw: closest.judged.raw },
    panel,
  };
}
