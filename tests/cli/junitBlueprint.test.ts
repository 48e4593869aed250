/** `blueprint run --format junit`: a blueprint run's document as JUnit XML, read back strictly. */
import { describe, expect, it } from "vitest";
import { BlueprintRunSchema } from "../../src/blueprints/result.js";
import { coveragePasses, renderBlueprintJunit } from "../../src/cli/report/junitBlueprint.js";
import { junitSchemaProblems } from "./junitSchema.js";
import { childrenNamed, readXml, type XmlNode } from "./xmlReader.js";

/** Two prompts × two models: one pair fully covered, one with a point not assessed, one under, one unanswered. */
const RUN = BlueprintRunSchema.parse({
  configId: "poets",
  configTitle: "Poets <& co>",
  runLabel: "r1",
  timestamp: "2025-01-02T03:04:05.678Z",
  models: ["ollama:a", "ollama:b"],
  judge: { model: "ollama:judge", seed: 42 },
  promptIds: ["p1", "p2"],
  promptTexts: { p1: "one", p2: "two" },
  allFinalAssistantResponses: { p1: { "ollama:a": "x", "ollama:b": "y" }, p2: { "ollama:a": "z" } },
  evaluationResults: {
    llmCoverageScores: {
      p1: {
        "ollama:a": {
          keyPointsCount: 2,
          avgCoverageExtent: 0.8,
          pointAssessments: [
            {
              keyPointText: "names ]]> <script>",
              coverageExtent: 1,
              reflection: "yes",
              multiplier: 1,
            },
            { keyPointText: "dates", coverageExtent: 0.6, reflection: "partly", multiplier: 1 },
          ],
        },
        "ollama:b": {
          keyPointsCount: 2,
          avgCoverageExtent: 0.3,
          pointAssessments: [
            {
              keyPointText: "names",
              coverageExtent: 0.3,
              reflection: "barely \u0007",
              multiplier: 1,
            },
            {
              keyPointText: "dates",
              coverageExtent: null,
              reflection: "",
              multiplier: 1,
              error: "the judge gave no answer",
            },
          ],
          error: "1 point could not be assessed",
        },
      },
      p2: {
        "ollama:a": {
          keyPointsCount: 1,
          avgCoverageExtent: 0.4,
          pointAssessments: [
            { keyPointText: "rhyme", coverageExtent: 0.4, reflection: "weak", multiplier: 1 },
          ],
        },
        "ollama:b": { error: "the candidate timed out" },
      },
    },
  },
});

const counts = (node: XmlNode) =>
  ["tests", "failures", "errors", "skipped"].map((key) => Number(node.attributes[key] ?? 0));

const point = (keyPointText: string, coverageExtent: number, group?: number, path?: number) => ({
  keyPointText,
  coverageExtent,
  reflection: `covered ${coverageExtent}`,
  multiplier: 1,
  ...(group === undefined || path === undefined ? {} : { alternative: { group, path } }),
});

/**
 * One answer to a prompt with two alternative groups of two paths each, as the worked example
 * has them, and a plain point: group 1 met by path 1 (1.0; path 2 0.0), group 2 met by path 2
 * (0.9; path 1 0.2); the plain point 0.8. Average (0.8 + 1.0 + 0.9) / 3 = 0.9.
 */
function alternativesRun(secondGroupPath2: number) {
  const group2 = Math.max(0.2, secondGroupPath2);
  return BlueprintRunSchema.parse({
    ...{ configId: "stoics", configTitle: "Stoics", runLabel: "r1" },
    ...{ timestamp: "2025-01-02T03:04:05.678Z", models: ["ollama:a"] },
    ...{
      judge: { model: "ollama:judge", seed: 42 },
      promptIds: ["p1"],
      promptTexts: { p1: "one" },
    },
    allFinalAssistantResponses: { p1: { "ollama:a": "x" } },
    evaluationResults: {
      llmCoverageScores: {
        p1: {
          "ollama:a": {
            keyPointsCount: 5,
            avgCoverageExtent: (0.8 + 1 + group2) / 3,
            pointAssessments: [
              point("virtue is the only good", 0.8),
              point("names Epictetus", 1, 1, 1),
              point("names Seneca", 0, 1, 2),
              point("quotes the Enchiridion", 0.2, 2, 1),
              point("quotes the Letters", secondGroupPath2, 2, 2),
            ],
            alternativeGroups: [
              { group: 1, block: "should", multiplier: 1, pathScores: [1, 0] },
              { group: 2, block: "should", multiplier: 1, pathScores: [0.2, secondGroupPath2] },
            ].map((g) => {
              const score = Math.max(...g.pathScores);
              return { ...g, score, decidingPath: g.pathScores.indexOf(score) + 1 };
            }),
          },
        },
      },
    },
  });
}

describe("blueprint run as JUnit XML", () => {
  it("one testsuite per prompt × model; points under the threshold fail, unassessed points and unanswered candidates are errors", () => {
    const root = readXml(renderBlueprintJunit(RUN, 0.5));
    const suites = childrenNamed(root, "testsuite");
    expect(suites.map((s) => s.attributes.name)).toEqual([
      "p1 × ollama:a",
      "p1 × ollama:b",
      "p2 × ollama:a",
      "p2 × ollama:b",
    ]);
    // p1×a: 2 points + overall, all pass. p1×b: "names" 0.3 fails, "dates" error, overall fails
    // (0.3 under 0.5 and a point not assessed). p2×a: "rhyme" 0.4 fails, overall 0.4 fails.
    // p2×b: one "answer" testcase in error.
    expect(suites.map(counts)).toEqual([
      [3, 0, 0, 0],
      [3, 2, 1, 0],
      [2, 2, 0, 0],
      [1, 0, 1, 0],
    ]);
    // Jenkins' schema has no `skipped` on <testsuites>: the root counts tests, failures, errors.
    expect(root.attributes.skipped).toBeUndefined();
    expect(counts(root)).toEqual([9, 4, 2, 0]);
    expect(childrenNamed(suites[0] as XmlNode, "testcase")[0]?.attributes.name).toBe(
      "point 1: names ]]> <script>",
    );
  });

  it("the threshold moves the failures, and the gate never passes a pair without an answer or with a point not assessed", () => {
    const root = readXml(renderBlueprintJunit(RUN, 0.7));
    // At 0.7 the "dates" point of p1×a (0.6) fails too; its overall (0.8) still passes.
    expect(counts(childrenNamed(root, "testsuite")[0] as XmlNode)).toEqual([3, 1, 0, 0]);
    const scores = RUN.evaluationResults.llmCoverageScores;
    expect(coveragePasses(scores.p1?.["ollama:a"] ?? { error: "" }, 0.8)).toBe(true);
    expect(coveragePasses(scores.p1?.["ollama:a"] ?? { error: "" }, 0.81)).toBe(false);
    expect(coveragePasses(scores.p1?.["ollama:b"] ?? { error: "" }, 0)).toBe(false);
    expect(coveragePasses(scores.p2?.["ollama:b"] ?? { error: "" }, 0)).toBe(false);
  });

  it("never passes a pair held for human review: its overall testcase fails with the reasons", () => {
    const held = {
      keyPointsCount: 1,
      avgCoverageExtent: 1,
      pointAssessments: [point("names", 1)],
      humanReviewRequired: true as const,
      humanReviewReasons: ["possible prompt injection in the content (instruction-override)"],
    };
    expect(coveragePasses(held, 0.5)).toBe(false);
    const run = BlueprintRunSchema.parse({
      ...RUN,
      models: ["ollama:a"],
      promptIds: ["p1"],
      evaluationResults: { llmCoverageScores: { p1: { "ollama:a": held } } },
    });
    const suite = childrenNamed(readXml(renderBlueprintJunit(run)), "testsuite")[0] as XmlNode;
    expect(counts(suite)).toEqual([2, 1, 0, 0]);
    const overall = childrenNamed(suite, "testcase").find((c) => c.attributes.name === "overall");
    const failure = childrenNamed(overall as XmlNode, "failure")[0];
    expect(failure?.attributes.message).toContain("held for human review");
    expect(failure?.attributes.message).toContain("instruction-override");
  });

  it("counts an alternative group as a whole: both groups met, the paths not needed are skipped, no failure", () => {
    const root = readXml(renderBlueprintJunit(alternativesRun(0.9), 0.5));
    const suite = childrenNamed(root, "testsuite")[0] as XmlNode;
    // 5 points, 2 groups, overall: 8 tests; Seneca (path 2 of group 1) and the Enchiridion (path 1
    // of group 2) were not needed: skipped, never failures.
    expect(counts(suite)).toEqual([8, 0, 0, 2]);
    const cases = childrenNamed(suite, "testcase");
    const outcome = (c: XmlNode) => c.children[0]?.name ?? "passed";
    expect(cases.map((c) => [c.attributes.name, outcome(c)])).toEqual([
      ["point 1: virtue is the only good", "passed"],
      ["point 2: names Epictetus", "passed"],
      ["point 3: names Seneca", "skipped"],
      ["point 4: quotes the Enchiridion", "skipped"],
      ["point 5: quotes the Letters", "passed"],
      ["group 1: alternatives", "passed"],
      ["group 2: alternatives", "passed"],
      ["overall", "passed"],
    ]);
    expect(cases[2]?.children[0]?.attributes.message).toBe(
      "not needed: alternative group 1 is met (1.00 by path 1); this point is on path 2",
    );
    expect(junitSchemaProblems(root)).toEqual([]);
  });

  it("fails a group that no path meets, with its points under the threshold", () => {
    // Group 2's best path is now 0.3 (path 1 0.2): under 0.5.
    const root = readXml(renderBlueprintJunit(alternativesRun(0.3), 0.5));
    const suite = childrenNamed(root, "testsuite")[0] as XmlNode;
    const cases = childrenNamed(suite, "testcase");
    const failed = cases.filter((c) => c.children[0]?.name === "failure");
    expect(failed.map((c) => c.attributes.name)).toEqual([
      "point 4: quotes the Enchiridion",
      "point 5: quotes the Letters",
      "group 2: alternatives",
    ]);
    expect(failed[2]?.children[0]?.attributes.message).toBe(
      "coverage 0.30 under the threshold 0.50 (path 1 0.20, path 2 0.30)",
    );
    // Group 1 is still met: its unneeded path stays skipped.
    expect(counts(suite)).toEqual([8, 3, 0, 1]);
  });

  it("writes only what Jenkins' JUnit schema allows, for every suite shape", () => {
    for (const run of [RUN, alternativesRun(0.9), alternativesRun(0.3)]) {
      expect(junitSchemaProblems(readXml(renderBlueprintJunit(run, 0.5)))).toEqual([]);
    }
    // The check can fail: a `skipped` on <testsuites>, a testcase without a name.
    const old = readXml(
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="1" skipped="0"><testsuite name="s" tests="1" failures="0" errors="0"><testcase classname="c"/></testsuite></testsuites>',
    );
    expect(junitSchemaProblems(old)).toEqual([
      'testsuites: <testsuites> has no attribute "skipped" in the schema',
      'testsuites/testsuite[0]/testcase[0]: <testcase> needs "name"',
    ]);
  });
});
