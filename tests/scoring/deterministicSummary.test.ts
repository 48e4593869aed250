import { describe, expect, it } from "vitest";
import type { Level } from "../../src/criteria/model.js";
import {
  criterionFeedbackLine,
  deterministicSummary,
} from "../../src/scoring/deterministicSummary.js";
import {
  catalog,
  checkOutcome,
  levelOutcome,
  notEvaluated,
  resultsFor,
  score,
  scoreOutcome,
  seedCatalog,
  unitCriterion,
  unitOutcome,
} from "./helpers.js";

const clarityLevels: Level[] = [
  { id: "fail", label: "Fail", description: "Unclear", score: 0, indicators: [] },
  { id: "pass", label: "Pass", description: "Understandable", score: 0.7, indicators: [] },
  {
    id: "excellent",
    label: "Excellent",
    description: "Crystal clear with good examples",
    score: 1,
    indicators: [],
  },
];
const completenessLevels: Level[] = [
  { id: "fail", label: "Fail", description: "Misses topics", score: 0, indicators: [] },
  { id: "pass", label: "Pass", description: "Covers the basics", score: 0.7, indicators: [] },
  {
    id: "excellent",
    label: "Excellent",
    description: "Covers all required topics with depth",
    score: 1,
    indicators: [],
  },
];

const rubric = catalog({
  id: "content_quality",
  name: "Content Quality",
  criteria: [
    {
      id: "clarity",
      title: "Clarity",
      description: "How clear",
      weight: 0.5,
      method: { kind: "levels", levels: clarityLevels },
    },
    {
      id: "completeness",
      title: "Completeness",
      description: "How complete",
      weight: 0.5,
      method: { kind: "levels", levels: completenessLevels },
    },
  ],
});

describe("deterministicSummary", () => {
  it("writes the rubric format's summary for a rubric with levels", () => {
    const scored = score(rubric, {
      clarity: levelOutcome(clarityLevels, "excellent"),
      completeness: levelOutcome(completenessLevels, "pass"),
    });
    expect(deterministicSummary(rubric, scored)).toBe(
      [
        "Evaluation PASSED for catalog 'Content Quality'.",
        "Overall score: 85%",
        "",
        "- Clarity: excellent (score: 1.00)",
        "- Completeness: pass (score: 0.70)",
        "",
        "Suggestions for improvement:",
        "  - Completeness: aim for 'Excellent' — Covers all required topics with depth",
      ].join("\n"),
    );
  });

  it("shows native values, the funding status and criteria that were not evaluated", () => {
    const cat = seedCatalog();
    const scored = score(cat, {
      c1: checkOutcome("pass"),
      c2: scoreOutcome(4),
      c3: notEvaluated("judge timed out after 60s"),
    });
    expect(deterministicSummary(cat, scored)).toBe(
      [
        // Not passed (the market is not evaluated) but close: borderline, in the summary too.
        "Evaluation BORDERLINE for catalog 'PROFI Standard': not passed, but close.",
        "Overall score: 75%",
        "Funding status: REVIEW_REQUIRED (total 4 on 1–5)",
        "",
        "- Hamburg Base: pass (score: 1.00)",
        "- Innovation: 4 (score: 0.75)",
        "- Market: not evaluated (judge timed out after 60s)",
      ].join("\n"),
    );
  });

  it("suggests what an unmet criterion needs on its own scale", () => {
    const cat = seedCatalog();
    const scored = score(cat, {
      c1: checkOutcome("fail"),
      c2: scoreOutcome(2),
      c3: scoreOutcome(5),
    });
    const text = deterministicSummary(cat, scored);
    expect(text).toContain("Funding status: REJECTED (total 3.8 on 1–5)");
    expect(text).toContain("  - Hamburg Base: needs a pass — Is the company based in Hamburg?");
    // threshold 0.7 on 1–5 is 3.8
    expect(text).toContain(
      "  - Innovation: reach at least 3.8 (now 2) — Rate the technological innovation (1-5).",
    );
    expect(text).not.toContain("  - Market:");
  });

  it("suggests the 'excellent' guideline for scores below the excellent band", () => {
    const guidelines = {
      excellent: "Cites three or more recent sources",
      good: "g",
      adequate: "a",
      poor: "p",
      inadequate: "i",
    };
    const cat = catalog({
      name: "Research",
      criteria: [
        unitCriterion("depth", 1, {
          title: "Depth",
          method: { kind: "score", scale: { min: 0, max: 1 }, guidelines },
        }),
      ],
    });
    const low = deterministicSummary(cat, score(cat, { depth: unitOutcome(0.85) }));
    expect(low).toContain("  - Depth: aim for 'excellent' — Cites three or more recent sources");
    const high = deterministicSummary(cat, score(cat, { depth: unitOutcome(0.9) }));
    expect(high).not.toContain("Suggestions for improvement:");
  });
});

describe("criterionFeedbackLine", () => {
  it("writes one line per criterion", () => {
    const cat = seedCatalog();
    const [c1, c2, c3] = resultsFor(cat, {
      c1: checkOutcome("fail"),
      c2: scoreOutcome(3),
      c3: notEvaluated("no context found"),
    });
    expect(c1 && criterionFeedbackLine(c1)).toBe("Hamburg Base: fail (score: 0.00)");
    expect(c2 && criterionFeedbackLine(c2)).toBe("Innovation: 3 (score: 0.50)");
    expect(c3 && criterionFeedbackLine(c3)).toBe("Market: not evaluated (no context found)");
  });
});
