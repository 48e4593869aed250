/**
 * Blueprint prompts with `should_not` blocks, alternative paths (in both blocks) and an ideal
 * answer for the reference-based point functions. The judge answers each key point with a score
 * fixed here, so every coverage below is computed by hand (the working is beside each case).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isBlueprintError } from "../../src/blueprints/errors.js";
import {
  BlueprintRunSchema,
  type CoverageResult,
  CoverageResultSchema,
  prepareBlueprint,
  runBlueprint,
} from "../../src/blueprints/index.js";
import { type RecordedMessage, ScriptedChatModel } from "../doubles/index.js";

/** What the judge answers for each key point; "unanswerable" gets prose with no score. */
const JUDGED: Record<string, number | "unanswerable"> = {
  "Gives the start date.": 1,
  "Promises guaranteed funding.": 0.8,
  "Names the budget total.": 0.5,
  "Asks which currency the funder uses.": 0.9,
  "States the amount in euros.": 0.2,
  "Gives a deadline.": 0.4,
  "Says no deadline applies.": 1,
  "Explains why.": 0,
  "Mentions a competitor.": 0.6,
  "Criticises the competitor.": 0.2,
  "Uses an insult.": 0,
  "Answers the question.": 1,
  "Quotes the call text.": "unanswerable",
};

function judge(): ScriptedChatModel {
  return new ScriptedChatModel({
    model: "judge",
    responder: (messages: RecordedMessage[]) => {
      const user = messages.find((m) => m.role === "user")?.content ?? "";
      const point = Object.keys(JUDGED).find((text) => user.includes(text));
      const score = point === undefined ? undefined : JUDGED[point];
      if (score === undefined) throw new Error(`no key point the test knows in: ${user}`);
      if (score === "unanswerable") return "I cannot tell.";
      return JSON.stringify({ reasoning: `Judged ${score}.`, score, hits: [], misses: [] });
    },
  });
}

function candidate(answer: string): ScriptedChatModel {
  return new ScriptedChatModel({ model: "candidate", responder: () => answer });
}

async function coverageFor(
  prompt: Record<string, unknown>,
  answer: string,
): Promise<CoverageResult> {
  const run = await runBlueprint(
    { prompts: [{ id: "p", promptText: "Tell us about the grant.", ...prompt }] },
    { models: [candidate(answer)], judge: judge() },
  );
  expect(BlueprintRunSchema.safeParse(run).success).toBe(true);
  return CoverageResultSchema.parse(
    Object.values(run.evaluationResults.llmCoverageScores.p ?? {})[0],
  );
}

describe("should_not", () => {
  it("counts each point as 1 − its coverage, text and function points alike", async () => {
    const coverage = await coverageFor(
      {
        points: ["Gives the start date.", ["contains", "March"]],
        should_not: [
          "Promises guaranteed funding.",
          { fn: "icontains", fnArgs: "guaranteed", multiplier: 2 },
        ],
      },
      "We start in March; funding is guaranteed.",
    );
    expect(coverage.pointAssessments.map((a) => [a.multiplier, a.inverted ?? false])).toEqual([
      [1, false],
      [1, false],
      [1, true],
      [2, true],
    ]);
    const counted = coverage.pointAssessments.map((a) => a.coverageExtent ?? Number.NaN);
    expect(counted[0]).toBe(1);
    expect(counted[1]).toBe(1);
    // The judge measured 0.8: it counts 0.2.
    expect(counted[2]).toBeCloseTo(0.2, 12);
    // icontains found "guaranteed" (1): it counts 0.
    expect(counted[3]).toBe(0);
    expect(coverage.pointAssessments[2]?.reflection).toBe(
      "Should not be there: measured 0.8, counts 0.2. Judged 0.8.",
    );
    // (1·1 + 1·1 + 0.2·1 + 0·2) / (1 + 1 + 1 + 2) = 2.2 / 5
    expect(coverage.avgCoverageExtent).toBeCloseTo(0.44, 12);
    expect(coverage.keyPointsCount).toBe(4);
    expect(coverage.alternativeGroups).toBeUndefined();
  });

  it("a prompt may have only should_not points", async () => {
    const coverage = await coverageFor(
      { should_not: [["icontains", "guaranteed"]] },
      "Funding depends on review.",
    );
    // icontains is false (0): it counts 1.
    expect(coverage.avgCoverageExtent).toBe(1);
  });
});

describe("alternative paths", () => {
  it("a group in points scores its best path, with the group's multiplier", async () => {
    const coverage = await coverageFor(
      {
        points: [
          "Names the budget total.",
          [
            ["Asks which currency the funder uses.", ["contains", "?"]],
            ["States the amount in euros.", ["contains", "EUR"]],
          ],
          {
            alternatives: [
              ["Gives a deadline."],
              [{ text: "Says no deadline applies.", multiplier: 3 }, "Explains why."],
            ],
            multiplier: 2,
          },
        ],
      },
      "Which currency should we use?",
    );
    // Group 1: path 1 = (0.9 + 1) / 2 = 0.95, path 2 = (0.2 + 0) / 2 = 0.1 → 0.95 (path 1).
    // Group 2: path 1 = 0.4, path 2 = (3·1 + 1·0) / 4 = 0.75 → 0.75 (path 2), multiplier 2.
    expect(coverage.alternativeGroups).toEqual([
      {
        group: 1,
        block: "should",
        multiplier: 1,
        pathScores: [0.95, 0.1],
        decidingPath: 1,
        score: 0.95,
      },
      {
        group: 2,
        block: "should",
        multiplier: 2,
        pathScores: [0.4, 0.75],
        decidingPath: 2,
        score: 0.75,
      },
    ]);
    // (0.5·1 + 0.95·1 + 0.75·2) / (1 + 1 + 2) = 2.95 / 4
    expect(coverage.avgCoverageExtent).toBeCloseTo(0.7375, 12);
    expect(coverage.keyPointsCount).toBe(8);
    expect(coverage.pointAssessments.map((a) => a.alternative ?? null)).toEqual([
      null,
      { group: 1, path: 1 },
      { group: 1, path: 1 },
      { group: 1, path: 2 },
      { group: 1, path: 2 },
      { group: 2, path: 1 },
      { group: 2, path: 2 },
      { group: 2, path: 2 },
    ]);
  });

  it("a group in should_not is decided by the forbidden path the answer follows most", async () => {
    const coverage = await coverageFor(
      {
        should: ["Answers the question."],
        should_not: [
          [["Mentions a competitor.", "Criticises the competitor."], ["Uses an insult."]],
        ],
      },
      "Our approach differs from others.",
    );
    // Path 1 counts ((1 − 0.6) + (1 − 0.2)) / 2 = 0.6; path 2 counts 1 − 0 = 1; the worst is 0.6,
    // that is 1 − max(avg(0.6, 0.2), 0) = 1 − 0.4.
    const [group, ...others] = coverage.alternativeGroups ?? [];
    expect(others).toEqual([]);
    expect(group).toMatchObject({ group: 1, block: "should_not", multiplier: 1, decidingPath: 1 });
    expect(group?.pathScores[0]).toBeCloseTo(0.6, 12);
    expect(group?.pathScores[1]).toBe(1);
    expect(group?.score).toBeCloseTo(0.6, 12);
    // (1 + 0.6) / 2
    expect(coverage.avgCoverageExtent).toBeCloseTo(0.8, 12);
    expect(
      coverage.pointAssessments.every((a, i) => (i === 0) === (a.inverted === undefined)),
    ).toBe(true);
  });

  it("a path with a point the judge could not assess leaves its group unassessed, never zero", async () => {
    const coverage = await coverageFor(
      {
        points: [
          "Answers the question.",
          [["Quotes the call text."], ["States the amount in euros."]],
        ],
      },
      "An answer.",
    );
    expect(coverage.alternativeGroups?.[0]).toMatchObject({
      pathScores: [null, 0.2],
      decidingPath: null,
      score: null,
    });
    expect(coverage.pointAssessments[1]).toMatchObject({ coverageExtent: null });
    expect(coverage.pointAssessments[1]?.error).toBeDefined();
    expect(coverage.error).toBe("1 of 3 points could not be assessed");
    // Only the plain point counts.
    expect(coverage.avgCoverageExtent).toBe(1);
  });
});

describe("the worked example of templates-and-blueprints.md", () => {
  it("runs as written and gives the average worked out there", async () => {
    const doc = readFileSync(
      join(import.meta.dirname, "../../docs/templates-and-blueprints.md"),
      "utf8",
    );
    const after = doc.slice(doc.indexOf("A worked example"));
    const block = /```json\n([\s\S]*?)\n```/.exec(after)?.[1] ?? "";
    const coverageByPoint: Record<string, number> = {
      "Names the budget total.": 0.5,
      "Asks which currency the funder uses.": 0.9,
      "States the amount in euros.": 0.2,
      "Gives a deadline.": 0.4,
      "Says no deadline applies.": 1,
      "Explains why.": 0,
      "Promises guaranteed funding.": 0,
    };
    const docJudge = new ScriptedChatModel({
      model: "judge",
      responder: (messages: RecordedMessage[]) => {
        const user = messages.find((m) => m.role === "user")?.content ?? "";
        const point = Object.keys(coverageByPoint).find((text) => user.includes(text)) ?? "";
        const score = coverageByPoint[point];
        if (score === undefined) throw new Error(`no key point the test knows in: ${user}`);
        return JSON.stringify({ reasoning: `Judged ${score}.`, score });
      },
    });
    const run = await runBlueprint(JSON.parse(block), {
      models: [candidate("Which currency should we use?")],
      judge: docJudge,
    });
    const coverage = CoverageResultSchema.parse(
      Object.values(run.evaluationResults.llmCoverageScores.currency ?? {})[0],
    );
    expect(coverage.alternativeGroups?.map((g) => g.score)).toEqual([0.95, 0.75]);
    // (0.5 + 0.95 + 2·0.75 + 1) / 5
    expect(coverage.avgCoverageExtent).toBeCloseTo(0.79, 12);
  });
});

describe("the ideal answer", () => {
  it("is the reference of reference-based points that name none", async () => {
    const coverage = await coverageFor(
      {
        ideal: "We start in March and finish in June.",
        points: [
          ["rouge_l", {}],
          ["rouge_l", { reference: "We start in March." }],
        ],
      },
      "We start in March.",
    );
    // we start in march (4) against the ideal's 8 words: LCS 4, P = 1, R = 1/2, F = 2/3.
    // (Criterion scores are kept to 10 decimals.)
    expect(coverage.pointAssessments[0]?.coverageExtent).toBeCloseTo(2 / 3, 9);
    // The point's own reference wins: identical words, F = 1.
    expect(coverage.pointAssessments[1]?.coverageExtent).toBe(1);
  });

  it("idealResponse is read as well; without either, a point without reference is an error", async () => {
    const withAlias = await coverageFor(
      { idealResponse: "flaw", points: [["levenshtein_similarity", {}]] },
      "lawn",
    );
    expect(withAlias.pointAssessments[0]?.coverageExtent).toBe(0.5);
    const without = await coverageFor({ points: [["levenshtein_similarity", {}]] }, "lawn");
    expect(without.pointAssessments[0]?.coverageExtent).toBeNull();
    expect(without.pointAssessments[0]?.error).toMatch(/no reference answer/);
    expect(without.avgCoverageExtent).toBeNull();
  });
});

describe("blueprints that cannot be used", () => {
  const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      "a group of one path",
      { points: [[["Gives a deadline."]]] },
      /prompts\[0\]\.points\[0\]: an alternative group needs at least two paths/,
    ],
    [
      "a path that starts with a function name",
      { points: [[["contains", "x"], ["Gives a deadline."]]] },
      /prompts\[0\]\.points\[0\]\[0\]: a path is a list of points, and "contains" names a point function: write the function point inside the path as \[\["contains", …\]\]/,
    ],
    [
      "a group inside a path",
      { should_not: [[["a"], [[["b"], ["c"]]]]] },
      /prompts\[0\]\.should_not\[0\]\[1\]\[0\]: alternative groups cannot be nested in a path/,
    ],
    [
      "a path written one level too shallow (weval's bare nesting)",
      { points: [["is kind and polite.", "offers a recipe."]] },
      /prompts\[0\]\.points\[0\]: "is kind and polite\." is not a point function: .*\[\["point", …\], \["other point", …\]\]/,
    ],
    [
      "an unknown key in an alternatives object",
      { points: [{ alternatives: [["a"], ["b"]], weight: 2 }] },
      /prompts\[0\]\.points\[0\]: unknown key "weight"/,
    ],
    [
      "a negative group multiplier",
      { points: [{ alternatives: [["a"], ["b"]], multiplier: -1 }] },
      /a group's multiplier must be a number ≥ 0/,
    ],
    [
      "a group multiplier written as text",
      { points: [{ alternatives: [["a"], ["b"]], multiplier: "2" }] },
      /prompts\[0\]\.points\[0\]: a group's multiplier must be a number ≥ 0, not "2"/,
    ],
    [
      "a point multiplier written as text",
      { points: ["a", { text: "b", multiplier: "2" }] },
      /prompts\[0\]\.points\[1\].*multiplier.*number/,
    ],
    [
      "a bad function point inside a path",
      { points: ["a", [["b"], ["c", ["rouge_l", { min: 3 }]]]] },
      /prompts\[0\]\.points\[1\]\[1\]\[1\]: rouge_l: expected a reference text/,
    ],
    [
      "points whose multipliers sum to 0",
      {
        points: [
          { text: "a", multiplier: 0 },
          { fn: "contains", fnArgs: "b", multiplier: 0 },
        ],
      },
      /prompts\[0\]: the multipliers of its points and groups sum to 0: nothing can be weighed/,
    ],
    [
      "a group of multiplier 0 as the only thing counted",
      { points: [{ alternatives: [["a"], ["b"]], multiplier: 0 }] },
      /prompts\[0\]: the multipliers of its points and groups sum to 0: nothing can be weighed/,
    ],
    [
      "a path whose points' multipliers sum to 0",
      { points: ["c", [[{ text: "a", multiplier: 0 }], ["b"]]] },
      /prompts\[0\]\.points\[1\]\[0\]: the multipliers of the path's points sum to 0: nothing can be weighed/,
    ],
    [
      "groups whose multipliers are too large to add up",
      { points: ["c", ...[1, 2].map(() => ({ alternatives: [["a"], ["b"]], multiplier: 1e308 }))] },
      /prompts\[0\]: the multipliers of its points and groups are too large to add up/,
    ],
    ["both points and should", { points: ["a"], should: ["b"] }, /not both/],
    ["no points at all", {}, /a prompt needs points/],
  ];

  it.each(refusals)("refuses %s, naming where", (_what, prompt, message) => {
    const attempt = () =>
      prepareBlueprint({ prompts: [{ id: "p", promptText: "Tell us.", ...prompt }] });
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect(isBlueprintError(error)).toBe(true);
    }
  });

  it("keeps plain blueprints as they were: should is points by another name", () => {
    const { prompts } = prepareBlueprint({
      prompts: [{ id: "p", promptText: "Tell us.", should: ["a", ["contains", "b"]] }],
    });
    expect(prompts[0]?.plan.items).toEqual([
      { kind: "point", index: 0, block: "should" },
      { kind: "point", index: 1, block: "should" },
    ]);
    expect(prompts[0]?.catalog.criteria.map((c) => c.method.kind)).toEqual(["point", "function"]);
  });
});
