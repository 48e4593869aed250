import {
  type Catalog,
  CatalogSchema,
  type CriterionInput,
  FIVE_POINT_SCALE,
} from "../src/criteria/model.js";
import { makeCriterionResult } from "../src/scoring/criterionResult.js";
import {
  type CriterionOutcome,
  type EvaluationResult,
  EvaluationResultSchema,
} from "../src/scoring/result.js";
import { checkToUnit, toUnit } from "../src/scoring/scale.js";
import { scoreCatalogResult } from "../src/scoring/scoreCatalog.js";

function outcome(native: number | "pass" | "fail", reasoning: string): CriterionOutcome {
  const score = typeof native === "number" ? toUnit(native, FIVE_POINT_SCALE) : checkToUnit(native);
  return { evaluated: true, score, native, reasoning, hits: [], misses: [], evidence: [] };
}

function evaluate(
  catalog: Catalog,
  outcomes: ReadonlyMap<string, CriterionOutcome>,
): EvaluationResult {
  const results = catalog.criteria.map((criterion) => {
    const found = outcomes.get(criterion.id);
    if (found === undefined) throw new Error(`sample: no outcome for ${criterion.id}`);
    return makeCriterionResult(criterion, found, catalog);
  });
  const scored = scoreCatalogResult(catalog, results);
  return EvaluationResultSchema.parse({
    ...scored,
    timestamp: new Date(0).toISOString(),
    evaluator: "ai",
    strengths: [],
    weaknesses: [],
    suggestions: [],
    feedback: "",
    catalog: { id: catalog.id, version: catalog.version, name: catalog.name },
    usage: {},
    traces: [],
  });
}

const score = (id: string, title: string, weight: number): CriterionInput => ({
  id,
  title,
  description: `Rate ${title.toLowerCase()} (1-5).`,
  weight,
  method: { kind: "score", scale: FIVE_POINT_SCALE },
});

const check = (id: string, title: string): CriterionInput => ({
  id,
  title,
  description: `Is ${title.toLowerCase()} satisfied?`,
  weight: 1,
  knockout: true,
  method: { kind: "check" },
});

/**
 * The IFB PROFI catalog's example (the TOON criteria dialect's): c1 knockout pass, c2 = 4 (0.4),
 * c3 = 3 (0.6) → 3.4, REVIEW_REQUIRED.
 */
export function ifbProfiExampleResult(): EvaluationResult {
  const catalog = CatalogSchema.parse({
    id: "ifb_profi",
    name: "PROFI Standard",
    version: "1.0",
    statusRules: {},
    criteria: [
      check("c1", "Hamburg Base"),
      score("c2", "Innovation", 0.4),
      score("c3", "Market", 0.6),
    ],
  });
  return evaluate(
    catalog,
    new Map([
      ["c1", outcome("pass", "Address in Hamburg confirmed (Page 2).")],
      ["c2", outcome(4, "High innovation, uses novel AI approach.")],
      ["c3", outcome(3, "Market is crowded but growing.")],
    ]),
  );
}

const REASONS = [
  "Registered office in Hamburg confirmed by the trade register extract.",
  "Fewer than 250 employees and turnover under 50 million euros.",
  "Novel retrieval approach, clearly beyond the state of the art.",
  "Crowded market, but a clear niche in municipal procurement.",
  "Founders combine domain expertise with shipped ML products.",
  "Own contribution of 30% is documented by a bank letter.",
  "Milestones are concrete, though the pilot phase is tight.",
  "Technical risks named; mitigation for data access is thin.",
] as const;

/** 20 criteria: 4 knockout checks and 16 weighted 1–5 scores, one-sentence reasoning each. */
export function twentyCriterionResult(): EvaluationResult {
  const criteria: CriterionInput[] = [];
  const outcomes = new Map<string, CriterionOutcome>();
  for (let i = 0; i < 20; i++) {
    const id = `c${i + 1}`;
    const reason = REASONS[i % REASONS.length] ?? "Judged.";
    if (i < 4) {
      criteria.push(check(id, `Eligibility ${i + 1}`));
      outcomes.set(id, outcome("pass", reason));
    } else {
      criteria.push(score(id, `Quality ${i + 1}`, 1 + (i % 3)));
      outcomes.set(id, outcome((i % 5) + 1, reason));
    }
  }
  const catalog = CatalogSchema.parse({
    id: "profi_20",
    name: "PROFI Extended",
    version: "1.0",
    statusRules: {},
    criteria,
  });
  return evaluate(catalog, outcomes);
}
