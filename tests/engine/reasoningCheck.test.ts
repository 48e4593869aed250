/**
 * A judge whose reasoning contradicts its score holds the result for human review through every
 * entry point: the score is kept, the criterion is not failed, a warning and a review reason name
 * the criterion. Answers that pass while naming a weakness are not held.
 */
import { describe, expect, it } from "vitest";
import { CriteriaEngine } from "../../src/engine/apis/criteriaEngine.js";
import { PromptEvaluator } from "../../src/engine/apis/promptEvaluator.js";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { catalogOf, judgeOf, tableAnswer, titleIn, userPromptOf } from "./helpers.js";
import { quizJudge, quizRubric } from "./quizRubric.js";

const CONTENT = [
  "Stadtteilwerk Linden plans twelve repair cafés in community centres over two years.",
  "Volunteers are trained by two electricians; the city lends the rooms free of charge.",
].join("\n");

function catalog() {
  return catalogOf({
    id: "repair",
    name: "Repair cafés",
    version: "1",
    passingThreshold: 0.6,
    criteria: [
      {
        id: "reach",
        title: "Reach",
        description: "Rate how many residents the project reaches (1-5).",
        weight: 1,
        method: { kind: "score", scale: { min: 1, max: 5, integer: true } },
      },
      {
        id: "venues",
        title: "Venues secured",
        description: "Are the venues secured?",
        weight: 1,
        method: { kind: "check" },
      },
    ],
  });
}

function judgeAnswering(answers: Record<string, string>) {
  return new ScriptedChatModel({
    responder: (messages) => {
      const prompt = userPromptOf(messages);
      const ids = /one row per criterion in this order:\n(.+)\.\n/.exec(prompt)?.[1];
      if (ids !== undefined) return answers.table ?? "";
      return answers[titleIn(prompt) ?? ""] ?? "";
    },
  });
}

async function evaluate(answers: Record<string, string>, mode: "per-criterion" | "batch") {
  return evaluateContent({
    content: CONTENT,
    catalog: catalog(),
    model: judgeOf(judgeAnswering(answers)),
    mode,
  });
}

const VENUES_PASS = '{"reasoning": "The city lends the rooms free of charge.", "result": "pass"}';

describe("evaluateContent", () => {
  it("a passing score beside reasoning that says the criterion is not addressed is held, score kept", async () => {
    const result = await evaluate(
      {
        Reach:
          '{"reasoning": "The content does not address the reach requirement at all.", "score": 5}',
        "Venues secured": VENUES_PASS,
      },
      "per-criterion",
    );
    const reach = result.criteria.find((c) => c.id === "reach");
    expect(reach).toMatchObject({ evaluated: true, native: 5, score: 1, met: true });
    expect(result.overallScore).toBe(1);
    expect(result.humanReviewRequired).toBe(true);
    expect(result.passed).toBe(false);
    expect(result.verdict).toBe("borderline");
    expect(result.humanReviewReasons).toEqual([
      'criterion reach: the judge\'s reasoning says it is not met ("the content does not address the reach requirement at all.") but its score 5 passes',
    ]);
    expect(result.warnings.join("\n")).toContain("reach: reasoning and score disagree");
  });

  it("a passing answer that names a weakness it sets aside is not held", async () => {
    const result = await evaluate(
      {
        Reach:
          '{"reasoning": "Twelve cafés reach most districts, although the outreach plan lacks a target number.", "score": 4}',
        "Venues secured": VENUES_PASS,
      },
      "per-criterion",
    );
    expect(result.humanReviewRequired).toBe(false);
    expect(result.passed).toBe(true);
  });

  it("a failing check beside glowing reasoning is held too", async () => {
    const result = await evaluate(
      {
        Reach: '{"reasoning": "Twelve cafés in community centres.", "score": 4}',
        "Venues secured":
          '{"reasoning": "Fully meets the criterion: the city lends every room.", "result": "fail"}',
      },
      "per-criterion",
    );
    expect(result.criteria.find((c) => c.id === "venues")).toMatchObject({ native: "fail" });
    expect(result.humanReviewRequired).toBe(true);
    expect(result.humanReviewReasons?.[0]).toContain(
      "criterion venues: the judge's reasoning says it is fully met",
    );
  });

  it("a double negative reads positive: not held beside a pass, held beside a fail", async () => {
    const reasoning =
      "No ineligible rental costs are included; the city lends the rooms free of charge.";
    const venues = (result: "pass" | "fail") =>
      evaluate(
        {
          Reach: '{"reasoning": "Twelve cafés in community centres.", "score": 4}',
          "Venues secured": JSON.stringify({ reasoning, result }),
        },
        "per-criterion",
      );
    const [passed, failed] = await Promise.all([venues("pass"), venues("fail")]);
    // "no" is spent on "ineligible" (no costs are wrong), so "included" is not turned around.
    expect(passed.humanReviewRequired).toBe(false);
    expect(passed.passed).toBe(true);
    expect(failed.humanReviewRequired).toBe(true);
    expect(failed.humanReviewReasons).toEqual([
      'criterion venues: the judge\'s reasoning says it is fully met ("no ineligible rental costs are included") but its score fail fails',
    ]);
  });

  it("batch rows are checked the same way", async () => {
    const table = [
      "results[2]{id,score,quotes,reasoning}:",
      '  reach,4,"","Insufficient information to judge how many residents are reached."',
      '  venues,pass,"","The city lends the rooms."',
    ].join("\n");
    const result = await evaluate({ table }, "batch");
    expect(result.criteria.find((c) => c.id === "reach")?.native).toBe(4);
    expect(result.humanReviewRequired).toBe(true);
    expect(result.humanReviewReasons?.[0]).toContain("criterion reach:");
  });
});

describe("a panel of judges", () => {
  const REACH = '{"reasoning": "Twelve cafés in community centres.", "score": 4}';
  const VENUES_FAIL = '{"reasoning": "Only the rooms are named.", "result": "fail"}';

  async function evaluateWithPanel(venues: readonly string[]) {
    const judges = venues.map(
      (answer, i) =>
        new ScriptedChatModel({
          model: `j${i + 1}`,
          responder: (messages) => (titleIn(userPromptOf(messages)) === "Reach" ? REACH : answer),
        }),
    );
    return evaluateContent({
      content: CONTENT,
      catalog: catalog(),
      judges: judges.map((j) => judgeOf(j)),
      mode: "per-criterion",
    });
  }

  it("the list of the members' values is no reasoning: a 2–1 pass with the dissent last is not held", async () => {
    const result = await evaluateWithPanel([VENUES_PASS, VENUES_PASS, VENUES_FAIL]);
    const venues = result.criteria.find((c) => c.id === "venues");
    expect(venues?.reasoning).toContain("scripted:j3 fail");
    expect(venues?.native).toBe("pass");
    expect(result.humanReviewReasons).toBeUndefined();
    expect(result.passed).toBe(true);
  });

  it("each member's own reasoning is read beside its own answer, and the member named", async () => {
    const result = await evaluateWithPanel([
      VENUES_PASS,
      VENUES_PASS,
      '{"reasoning": "No venue is named, so the requirement is unmet.", "result": "pass"}',
    ]);
    expect(result.humanReviewReasons).toEqual([
      'criterion venues: judge scripted:j3\'s reasoning says it is not met ("so the requirement is unmet.") but its score pass passes',
    ]);
    expect(result.passed).toBe(false);
  });
});

describe("the documented API classes", () => {
  it("CriteriaEngine.evaluateCriterion holds a pass whose reasoning says the requirement is unmet", async () => {
    const model = new ScriptedChatModel({
      script: [
        '{"reasoning": "No venue is named, so the requirement is unmet.", "result": "pass"}',
      ],
    });
    const engine = new CriteriaEngine({ model: judgeOf(model) });
    const result = await engine.evaluateCriterion(
      {
        id: "venues",
        title: "Venues secured",
        description: "Are the venues secured?",
        weight: 1,
        method: { kind: "check" },
      },
      CONTENT,
    );
    expect(result).toMatchObject({ evaluated: true, native: "pass", score: 1 });
    expect(result.met).toBe(false);
    expect(result.humanReviewRequired).toBe(true);
    expect(result.humanReviewReasons?.[0]).toContain("criterion venues:");
  });

  it("PromptEvaluator free-form: a passing score with reasoning that says nothing is answered is borderline and held", async () => {
    const model = new ScriptedChatModel({
      script: ['{"score": 0.9, "reasoning": "The answer does not address the question."}'],
    });
    const result = await new PromptEvaluator({ model }).evaluate({
      question: "Where do the cafés meet?",
      candidateAnswer: "Twelve cafés over two years.",
    });
    expect(result.score).toBe(0.9);
    expect(result.verdict).toBe("borderline");
    expect(result.humanReviewRequired).toBe(true);
    expect(result.humanReviewReasons?.[0]).toContain("criterion freeform: the judge's reasoning");
  });

  it("PromptEvaluator rubric mode: an item passed on reasoning that says it is missing is held", async () => {
    const model = new ScriptedChatModel({
      script: [
        tableAnswer([
          ["rooms", "pass", "Community centres are named."],
          ["trainers", "pass", "The trainers are missing entirely."],
        ]),
      ],
    });
    const evaluator = new PromptEvaluator({
      model,
      rubrics: [
        { id: "rooms", expected_outcome: "Names where the cafés meet" },
        { id: "trainers", expected_outcome: "Names who trains volunteers" },
      ],
    });
    const result = await evaluator.evaluate({
      question: "How is the project run?",
      candidateAnswer: CONTENT,
    });
    expect(result.humanReviewRequired).toBe(true);
    expect(result.humanReviewReasons).toEqual([
      expect.stringContaining("criterion trainers: the judge's reasoning says it is not met"),
    ]);
    expect(result.verdict).not.toBe("pass");
  });

  it("RubricExecutor: a level that passes on reasoning that says the criterion is not met is held", async () => {
    const llm = quizJudge(
      '{"reasoning": "Every question is recall; the criterion is not met.", "level_id": "good"}',
    );
    const evaluation = await new RubricExecutor({ llm }).evaluate(
      quizRubric({ type: "llm_decode", decode_prompt: "Judge: {{ questions }}" }),
      { questions: ["What year was the town founded?"] },
    );
    expect(evaluation.criterion_results[0]?.level_id).toBe("good");
    expect(evaluation.human_review_required).toBe(true);
    expect(evaluation.passed).toBe(false);
  });
});
