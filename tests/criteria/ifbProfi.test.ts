import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Catalog, type EvaluationResult, loadCatalog } from "../../src/index.js";
import { makeCriterionResult } from "../../src/scoring/criterionResult.js";
import type { CriterionOutcome } from "../../src/scoring/result.js";
import { encodeResultsToon } from "../../src/scoring/resultsToon.js";
import { scoreCatalogResult } from "../../src/scoring/scoreCatalog.js";
import { decodeToon } from "../../src/toon/decode.js";

const catalogPath = join(import.meta.dirname, "../../data/criteria/ifb_profi.toon");

function outcome(native: number | "pass" | "fail", score: number, reasoning: string) {
  return {
    evaluated: true,
    score,
    native,
    reasoning,
    hits: [],
    misses: [],
    evidence: [],
  } satisfies CriterionOutcome;
}

/** Scores the shipped TOON criteria dialect catalog with the dialect's own example answers. */
function scoreSeedExample(catalog: Catalog, c1: "pass" | "fail"): EvaluationResult {
  const outcomes: Record<string, CriterionOutcome> = {
    c1: outcome(c1, c1 === "pass" ? 1 : 0, "Address in Hamburg confirmed (Page 2)."),
    c2: outcome(4, 0.75, "High innovation, uses novel AI approach."),
    c3: outcome(3, 0.5, "Market is crowded but growing."),
  };
  const results = catalog.criteria.map((c) =>
    makeCriterionResult(c, outcomes[c.id] ?? outcome(0, 0, ""), catalog),
  );
  const score = scoreCatalogResult(catalog, results);
  return {
    passed: score.passed,
    timestamp: "2026-01-01T00:00:00.000Z",
    evaluator: "ai",
    overallScore: score.overallScore,
    scores: score.scores,
    strengths: [],
    weaknesses: [],
    suggestions: [],
    feedback: "",
    verdict: score.verdict,
    status: score.status,
    nativeTotal: score.nativeTotal,
    criteria: score.criteria,
    notEvaluated: score.notEvaluated,
    catalog: { id: catalog.id, version: catalog.version },
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    warnings: score.warnings,
    traces: [],
  };
}

describe("data/criteria/ifb_profi.toon with the dialect's example", () => {
  it("TC-CRI-03: c1 pass, c2 = 4 (0.4), c3 = 3 (0.6) totals exactly 3.4 → REVIEW_REQUIRED", async () => {
    const catalog = await loadCatalog(catalogPath);
    expect(catalog.statusRules).toMatchObject({ fundable: 4, rejectBelow: 2 });
    const result = scoreSeedExample(catalog, "pass");
    expect(result.nativeTotal).toBe(3.4);
    expect(result.status).toBe("REVIEW_REQUIRED");
    expect(result.passed).toBe(false);
  });

  it("TC-CRI-02: a failed knockout gives REJECTED whatever the scores", async () => {
    const result = scoreSeedExample(await loadCatalog(catalogPath), "fail");
    expect(result.status).toBe("REJECTED");
    expect(result.verdict).toBe("fail");
    expect(result.nativeTotal).toBe(3.4);
  });

  it("writes the TOON criteria dialect's results TOON, which decodeToon reads back", async () => {
    const result = scoreSeedExample(await loadCatalog(catalogPath), "pass");
    const toon = encodeResultsToon(result);
    expect(decodeToon(toon)).toEqual({
      results: [
        {
          id: "c1",
          result: "pass",
          score: null,
          reasoning: "Address in Hamburg confirmed (Page 2).",
        },
        { id: "c2", result: null, score: 4, reasoning: "High innovation, uses novel AI approach." },
        { id: "c3", result: null, score: 3, reasoning: "Market is crowded but growing." },
      ],
      summary: { total_score: 3.4, status: "REVIEW_REQUIRED" },
    });
  });
});
