import {
  type Catalog,
  type CatalogInput,
  CatalogSchema,
  type CriterionInput,
  FIVE_POINT_SCALE,
  type Level,
} from "../../src/criteria/model.js";
import { makeCriterionResult, notEvaluatedOutcome } from "../../src/scoring/criterionResult.js";
import {
  type CriterionOutcome,
  type CriterionResult,
  type EvaluationResult,
  EvaluationResultSchema,
} from "../../src/scoring/result.js";
import { checkToUnit, toUnit } from "../../src/scoring/scale.js";
import { type CatalogScore, scoreCatalogResult } from "../../src/scoring/scoreCatalog.js";

export function catalog(input: Partial<CatalogInput> & Pick<CatalogInput, "criteria">): Catalog {
  return CatalogSchema.parse({ id: "test", name: "Test Catalog", version: "1.0", ...input });
}

export function scoreCriterion(
  id: string,
  weight: number,
  extra: Partial<CriterionInput> = {},
): CriterionInput {
  return {
    id,
    title: `Criterion ${id}`,
    description: `Rate ${id} (1-5).`,
    weight,
    method: { kind: "score", scale: FIVE_POINT_SCALE },
    ...extra,
  };
}

export function unitCriterion(
  id: string,
  weight: number,
  extra: Partial<CriterionInput> = {},
): CriterionInput {
  return {
    id,
    title: `Criterion ${id}`,
    description: `How well does the content do ${id}?`,
    weight,
    method: { kind: "score", scale: { min: 0, max: 1 } },
    ...extra,
  };
}

/** The IFB PROFI catalog: c1 knockout check, c2 innovation 0.4, c3 market 0.6 (1–5). */
export function seedCatalog(statusRules: CatalogInput["statusRules"] = {}): Catalog {
  return catalog({
    id: "ifb_profi",
    name: "PROFI Standard",
    statusRules,
    criteria: [
      {
        id: "c1",
        title: "Hamburg Base",
        description: "Is the company based in Hamburg?",
        weight: 1.0,
        knockout: true,
        method: { kind: "check" },
      },
      scoreCriterion("c2", 0.4, {
        title: "Innovation",
        description: "Rate the technological innovation (1-5).",
      }),
      scoreCriterion("c3", 0.6, {
        title: "Market",
        description: "Rate the market potential (1-5).",
      }),
    ],
  });
}

export function scoreOutcome(native: number, reasoning = "Judged."): CriterionOutcome {
  return {
    evaluated: true,
    score: toUnit(native, FIVE_POINT_SCALE),
    native,
    reasoning,
    hits: [],
    misses: [],
    evidence: [],
  };
}

export function unitOutcome(score: number, reasoning = "Judged."): CriterionOutcome {
  return { evaluated: true, score, native: score, reasoning, hits: [], misses: [], evidence: [] };
}

export function checkOutcome(result: "pass" | "fail", reasoning = "Checked."): CriterionOutcome {
  return {
    evaluated: true,
    score: checkToUnit(result),
    native: result,
    reasoning,
    hits: [],
    misses: [],
    evidence: [],
  };
}

export function levelOutcome(
  levels: readonly Level[],
  id: string,
  reasoning = "Decided.",
): CriterionOutcome {
  return {
    evaluated: true,
    score: levels.find((l) => l.id === id)?.score ?? Number.NaN,
    native: id,
    level: id,
    reasoning,
    hits: [],
    misses: [],
    evidence: [],
  };
}

export const notEvaluated = (reason = "judge timed out after 60s") => notEvaluatedOutcome(reason);

/** One result per catalog criterion, built the way the engine builds them. */
export function resultsFor(
  cat: Catalog,
  outcomes: Record<string, CriterionOutcome>,
): CriterionResult[] {
  return cat.criteria.map((criterion) => {
    const outcome = outcomes[criterion.id];
    if (outcome === undefined) throw new Error(`test setup: no outcome for ${criterion.id}`);
    return makeCriterionResult(criterion, outcome, cat);
  });
}

export function score(cat: Catalog, outcomes: Record<string, CriterionOutcome>): CatalogScore {
  return scoreCatalogResult(cat, resultsFor(cat, outcomes));
}

/** A full EvaluationResult around a catalog score, validated by its schema. */
export function evaluationResult(cat: Catalog, scored: CatalogScore): EvaluationResult {
  return EvaluationResultSchema.parse({
    passed: scored.passed,
    timestamp: "2025-01-01T00:00:00.000Z",
    evaluator: "ai",
    overallScore: scored.overallScore,
    scores: scored.scores,
    strengths: [],
    weaknesses: [],
    suggestions: [],
    feedback: "",
    verdict: scored.verdict,
    status: scored.status,
    nativeTotal: scored.nativeTotal,
    criteria: scored.criteria,
    notEvaluated: scored.notEvaluated,
    catalog: { id: cat.id, version: cat.version, name: cat.name },
    usage: {},
    warnings: scored.warnings,
    traces: [],
  });
}

/** The IFB PROFI example evaluation: c1 pass, c2 = 4, c3 = 3 → 3.4, REVIEW_REQUIRED. */
export function seedEvaluation(): EvaluationResult {
  const cat = seedCatalog();
  const scored = score(cat, {
    c1: checkOutcome("pass", "Address in Hamburg confirmed (Page 2)."),
    c2: scoreOutcome(4, "High innovation, uses novel AI approach."),
    c3: scoreOutcome(3, "Market is crowded but growing."),
  });
  return evaluationResult(cat, scored);
}

const TOPICS = [
  ["Hamburg Base", "Registered office in Hamburg confirmed by the trade register extract."],
  ["SME Status", "Fewer than 250 employees and turnover under 50 million euros."],
  ["Innovation", "Novel retrieval approach, clearly beyond the state of the art."],
  ["Market", "Crowded market, but a clear niche in municipal procurement."],
  ["Team", "Founders combine domain expertise with shipped ML products."],
  ["Financing", "Own contribution of 30% is documented by a bank letter."],
  ["Work Plan", "Milestones are concrete, though the pilot phase is tight."],
  ["Risks", "Technical risks named; mitigation for data access is thin."],
  ["Exploitation", "Licensing model is plausible; pricing is not yet validated."],
  ["Sustainability", "Energy use of training runs is estimated and moderate."],
] as const;

/** A realistic 20-criterion evaluation: 4 knockout checks and 16 scores on 1–5. */
export function twentyCriterionEvaluation(): EvaluationResult {
  const criteria: CriterionInput[] = [];
  const outcomes: Record<string, CriterionOutcome> = {};
  for (let i = 0; i < 20; i++) {
    const [title, reasoning] = TOPICS[i % TOPICS.length] ?? ["Topic", "Judged."];
    const id = `c${i + 1}`;
    if (i < 4) {
      criteria.push({
        id,
        title: `${title} ${i + 1}`,
        description: `Is ${title} satisfied?`,
        weight: 1,
        knockout: true,
        method: { kind: "check" },
      });
      outcomes[id] = checkOutcome("pass", reasoning);
    } else {
      criteria.push(scoreCriterion(id, 0.05 + (i % 3) * 0.05, { title: `${title} ${i + 1}` }));
      outcomes[id] = scoreOutcome((i % 5) + 1, reasoning);
    }
  }
  const cat = catalog({ id: "profi_20", name: "PROFI Extended", statusRules: {}, criteria });
  return evaluationResult(cat, score(cat, outcomes));
}
