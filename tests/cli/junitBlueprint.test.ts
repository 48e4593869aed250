/** `blueprint run --format junit`: a blueprint run's document as JUnit XML, read back strictly. */
import { describe, expect, it } from "vitest";
import { BlueprintRunSchema } from "../../src/blueprints/result.js";
import { coveragePasses, renderBlueprintJunit } from "../../src/cli/report/junitBlueprint.js";
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
  ["tests", "failures", "errors", "skipped"].map((key) => Number(node.attributes[key]));

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
});
