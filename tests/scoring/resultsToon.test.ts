import { decode } from "@toon-format/toon";
import { describe, expect, it } from "vitest";
import type { Level } from "../../src/criteria/model.js";
import { encodeResultsToon, resultsToonDocument } from "../../src/scoring/resultsToon.js";
import {
  catalog,
  checkOutcome,
  evaluationResult,
  levelOutcome,
  notEvaluated,
  score,
  scoreOutcome,
  seedCatalog,
  seedEvaluation,
  twentyCriterionEvaluation,
} from "./helpers.js";

describe("encodeResultsToon", () => {
  it("writes the TOON criteria dialect's results table and summary", () => {
    expect(encodeResultsToon(seedEvaluation())).toBe(
      [
        "results[3]{id,result,score,reasoning}:",
        "  c1,pass,null,Address in Hamburg confirmed (Page 2).",
        '  c2,null,4,"High innovation, uses novel AI approach."',
        "  c3,null,3,Market is crowded but growing.",
        "summary:",
        "  total_score: 3.4",
        "  status: REVIEW_REQUIRED",
      ].join("\n"),
    );
  });

  it("decodes back (spec TOON) to the same values", () => {
    const decoded = decode(encodeResultsToon(seedEvaluation()));
    expect(decoded).toEqual({
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

  it("round-trips 20 criteria exactly", () => {
    const result = twentyCriterionEvaluation();
    expect(decode(encodeResultsToon(result))).toEqual(resultsToonDocument(result));
    expect(resultsToonDocument(result).results).toHaveLength(20);
  });

  it("marks criteria that were not evaluated as errors with the reason", () => {
    const cat = seedCatalog();
    const result = evaluationResult(
      cat,
      score(cat, {
        c1: checkOutcome("fail", "Based in Munich."),
        c2: scoreOutcome(5),
        c3: notEvaluated("judge returned no JSON, twice"),
      }),
    );
    const decoded = decode(encodeResultsToon(result));
    expect(decoded).toEqual({
      results: [
        { id: "c1", result: "fail", score: null, reasoning: "Based in Munich." },
        { id: "c2", result: null, score: 5, reasoning: "Judged." },
        { id: "c3", result: "error", score: null, reasoning: "judge returned no JSON, twice" },
      ],
      summary: { total_score: 5, status: "REJECTED" },
    });
  });

  it("writes the level and its score for level criteria, and the verdict without status rules", () => {
    const levels: Level[] = [
      { id: "fail", label: "Fail", description: "", score: 0, indicators: [] },
      { id: "pass", label: "Pass", description: "", score: 0.7, indicators: [] },
    ];
    const cat = catalog({
      criteria: [
        {
          id: "q",
          title: "Questions",
          description: "Enough?",
          weight: 1,
          method: { kind: "levels", levels },
        },
      ],
    });
    const result = evaluationResult(
      cat,
      score(cat, { q: levelOutcome(levels, "pass", 'Five questions, "null" answers none.') }),
    );
    expect(decode(encodeResultsToon(result))).toEqual({
      results: [
        { id: "q", result: "pass", score: 0.7, reasoning: 'Five questions, "null" answers none.' },
      ],
      summary: { total_score: 0.7, status: "borderline" },
    });
  });
});
