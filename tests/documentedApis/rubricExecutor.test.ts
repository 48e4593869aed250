import { describe, expect, it } from "vitest";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { CatalogError } from "../../src/criteria/errors.js";
import { parseCatalog } from "../../src/criteria/parse.js";
import { RubricEvaluationSchema, RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import { NO_JUDGE_NOTE } from "../../src/engine/judgeCatalog.js";
import { promptHash, responseHash } from "../../src/judge/trace.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { ModelUnavailableError } from "../../src/llm/errors.js";
import { type RecordedMessage, ScriptedChatModel } from "../doubles/index.js";
import {
  checkQuestionCount,
  FAIL_PASS,
  PEDAGOGY_LEVELS,
  QUIZ_RUBRIC,
} from "../rubrics/fixtures.js";

function quizRegistry(seen: unknown[] = []): FunctionRegistry {
  return new FunctionRegistry().register("scoring:check_question_count", (content) => {
    seen.push(content);
    return checkQuestionCount(content);
  });
}

describe("RubricExecutor: deterministic criteria (the rubric format)", () => {
  it("runs the quiz example: a registered function decides the level", async () => {
    const seen: unknown[] = [];
    const executor = new RubricExecutor({ functionRegistry: quizRegistry(seen) });
    const target = { questions: ["Q1", "Q2", "Q3", "Q4", "Q5"] };
    const evaluation = await executor.evaluate(QUIZ_RUBRIC, target, { targetId: "art_abc123" });

    expect(RubricEvaluationSchema.parse(evaluation)).toEqual(evaluation);
    expect(seen).toEqual([target]);
    expect(evaluation.id).toMatch(/^eval_[0-9a-f]{16}$/);
    expect(evaluation).toMatchObject({
      rubric_id: "quiz_quality",
      rubric_version: "1.0.0",
      target_id: "art_abc123",
      target_type: "content",
      weighted_score: 1,
      passed: true,
      evaluated_by: "system",
    });
    expect(evaluation.criterion_results).toEqual([
      {
        criterion_id: "question_count",
        level_id: "pass",
        score: 1,
        evidence: [],
        notes: "Function 'scoring:check_question_count' evaluated to level 'pass'.",
        scoring_method_used: "deterministic",
      },
    ]);
    expect(Number.isNaN(Date.parse(evaluation.evaluated_at))).toBe(false);
  });

  it("fails the quiz with too few questions, and takes the target type given", async () => {
    const executor = new RubricExecutor({ functionRegistry: quizRegistry() });
    const evaluation = await executor.evaluate(
      QUIZ_RUBRIC,
      { questions: ["Q1", "Q2", "Q3"] },
      { targetType: "quiz" },
    );
    expect(evaluation.criterion_results[0]?.level_id).toBe("fail");
    expect(evaluation.criterion_results[0]?.score).toBe(0);
    expect(evaluation.weighted_score).toBe(0);
    expect(evaluation.passed).toBe(false);
    expect(evaluation.target_type).toBe("quiz");
    expect(evaluation.target_id).toBe("");
  });

  it("gives a fresh id to every evaluation", async () => {
    const executor = new RubricExecutor({ functionRegistry: quizRegistry() });
    const target = { questions: [] };
    const [a, b] = await Promise.all([
      executor.evaluate(QUIZ_RUBRIC, target),
      executor.evaluate(QUIZ_RUBRIC, target),
    ]);
    expect(a?.id).not.toBe(b?.id);
  });

  it("reports a function that throws at level 'error' with the message, left out of the score", async () => {
    const registry = quizRegistry().register("scoring:check_sources", () => {
      throw new Error("sources list is malformed at item 3");
    });
    const rubric = {
      ...QUIZ_RUBRIC,
      criteria: [
        { ...QUIZ_RUBRIC.criteria[0], weight: 0.5 },
        {
          id: "sources",
          name: "Sources",
          description: "Every question cites a source",
          weight: 0.5,
          levels: FAIL_PASS,
          scoring_method: { type: "deterministic", function_ref: "scoring:check_sources" },
        },
      ],
    };
    const executor = new RubricExecutor({ functionRegistry: registry });
    const evaluation = await executor.evaluate(rubric, { questions: ["a", "b", "c", "d", "e"] });

    const sources = evaluation.criterion_results.find((r) => r.criterion_id === "sources");
    expect(sources?.level_id).toBe("error");
    expect(sources?.score).toBeNull();
    expect(sources?.notes).toContain("sources list is malformed at item 3");
    // The failed check is not a zero: the score is the evaluated criterion's, but a required
    // criterion that could not be evaluated keeps the rubric from passing.
    expect(evaluation.weighted_score).toBe(1);
    expect(evaluation.passed).toBe(false);
  });

  it("scores a schema criterion: valid → highest level, invalid → lowest with the errors as evidence", async () => {
    const rubric = {
      id: "quiz_shape",
      name: "Quiz Shape",
      version: "1.0.0",
      target_type: "content",
      pass_threshold: 0.7,
      criteria: [
        {
          id: "structure",
          name: "Structure",
          description: "The quiz has a non-empty list of string questions",
          weight: 1,
          levels: [
            { id: "invalid", label: "Invalid", description: "Malformed", score: 0 },
            { id: "valid", label: "Valid", description: "Well-formed", score: 1 },
          ],
          scoring_method: {
            type: "schema",
            schema: {
              type: "object",
              required: ["questions"],
              properties: {
                questions: { type: "array", minItems: 1, items: { type: "string" } },
              },
            },
          },
        },
      ],
    };
    const executor = new RubricExecutor();

    const valid = await executor.evaluate(rubric, { questions: ["Q1"] });
    expect(valid.criterion_results[0]).toMatchObject({
      level_id: "valid",
      score: 1,
      evidence: [],
      scoring_method_used: "schema",
    });
    expect(valid.passed).toBe(true);

    const invalid = await executor.evaluate(rubric, { questions: [] });
    expect(invalid.criterion_results[0]).toMatchObject({ level_id: "invalid", score: 0 });
    expect(invalid.criterion_results[0]?.evidence).toEqual([
      "/questions: must NOT have fewer than 1 items",
    ]);
    expect(invalid.passed).toBe(false);

    const wrongType = await executor.evaluate(rubric, { questions: [1, "two"] });
    expect(wrongType.criterion_results[0]?.evidence).toEqual(["/questions/0: must be string"]);
  });

  it("writes the rubric format's deterministic summary", async () => {
    const registry = new FunctionRegistry()
      .register("scoring:clarity", () => "excellent")
      .register("scoring:completeness", () => "pass");
    const levels = (top: string) => [
      { id: "fail", label: "Fail", description: "Missing", score: 0 },
      { id: "pass", label: "Pass", description: "Acceptable", score: 0.7 },
      { id: "excellent", label: "Excellent", description: top, score: 1 },
    ];
    const rubric = {
      id: "content_quality",
      name: "Content Quality",
      description: "Evaluates the quality of generated content",
      version: "1.0.0",
      target_type: "content",
      pass_threshold: 0.7,
      criteria: [
        {
          id: "clarity",
          name: "Clarity",
          description: "How clear and understandable the content is",
          weight: 0.5,
          levels: levels("Crystal clear with good examples"),
          scoring_method: { type: "deterministic", function_ref: "scoring:clarity" },
        },
        {
          id: "completeness",
          name: "Completeness",
          description: "How fully the content covers its topics",
          weight: 0.5,
          levels: levels("Covers all required topics with depth"),
          scoring_method: { type: "deterministic", function_ref: "scoring:completeness" },
        },
      ],
    };
    const executor = new RubricExecutor({ functionRegistry: registry });
    const evaluation = await executor.evaluate(rubric, { text: "..." });
    expect(evaluation.weighted_score).toBe(0.85);
    expect(evaluation.feedback_summary).toBe(
      [
        "Evaluation PASSED for rubric 'Content Quality'.",
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

  it("accepts a Catalog and a rubric text, and rejects an invalid rubric with its path", async () => {
    const executor = new RubricExecutor({ functionRegistry: quizRegistry() });
    const target = { questions: ["1", "2", "3", "4", "5"] };
    const text = JSON.stringify(QUIZ_RUBRIC);
    const catalog = parseCatalog(text, { format: "json" });
    expect((await executor.evaluate(catalog, target)).passed).toBe(true);
    expect((await executor.evaluate(text, target)).passed).toBe(true);

    const broken = { ...QUIZ_RUBRIC, pass_threshold: 1.5 };
    const error = await executor.evaluate(broken, target).catch((e) => e);
    expect(error).toBeInstanceOf(CatalogError);
    expect(error.message).toContain("pass_threshold");
  });
});

/** A quiz rubric with a deterministic count and an llm_decode pedagogy criterion. */
const PEDAGOGY_RUBRIC = {
  id: "quiz_pedagogy",
  name: "Quiz Pedagogy",
  version: "2.0.0",
  target_type: "content",
  pass_threshold: 0.7,
  criteria: [
    { ...QUIZ_RUBRIC.criteria[0], weight: 0.4 },
    {
      id: "pedagogy",
      name: "Pedagogical Quality",
      description: "Questions test understanding rather than memorisation",
      weight: 0.6,
      levels: PEDAGOGY_LEVELS,
      scoring_method: {
        type: "llm_decode",
        decode_prompt:
          "Evaluate the following questions for pedagogical quality:\n{{questions}}\nDo they test understanding vs. memorization?",
        decode_output_schema: {
          type: "object",
          properties: { level_id: { type: "string" } },
          required: ["level_id"],
        },
      },
    },
  ],
};

const QUIZ = {
  questions: [
    "Why does ice float on water?",
    "Explain photosynthesis in your own words.",
    "What would happen if the moon disappeared?",
    "How do vaccines train the immune system?",
    "Why are leaves green?",
  ],
};

const SUMMARY_TEXT =
  "The quiz passes. Its questions ask for explanations rather than recall. Add one question that applies the ideas to a new case.";

/** The decode answer for criterion calls; a plain summary for the summary call. */
function decoder(decodeAnswer: string) {
  return (messages: RecordedMessage[]) => {
    const system = messages.find((m) => m.role === "system")?.content ?? "";
    return system.includes("structured result of an evaluation") ? SUMMARY_TEXT : decodeAnswer;
  };
}

describe("RubricExecutor: llm_decode criteria and LLM feedback (the rubric format)", () => {
  it("classifies with the llm, records the invocation with hashes, and uses the LLM summary", async () => {
    const answer = JSON.stringify({
      reasoning: "All five questions ask why or how.",
      level_id: "good",
    });
    const llm = new ScriptedChatModel({ responder: decoder(answer) });
    const executor = new RubricExecutor({ functionRegistry: quizRegistry(), llm });
    const evaluation = await executor.evaluate(PEDAGOGY_RUBRIC, QUIZ);

    const decodeCall = llm.calls.find((c) =>
      c.messages.some((m) => m.content.includes("pedagogical quality")),
    );
    const system = decodeCall?.messages.find((m) => m.role === "system")?.content ?? "";
    const user = decodeCall?.messages.find((m) => m.role === "user")?.content ?? "";
    expect(user).toContain("Why does ice float on water?");
    expect(user).toContain('"good"');

    const pedagogy = evaluation.criterion_results.find((r) => r.criterion_id === "pedagogy");
    expect(pedagogy).toMatchObject({
      level_id: "good",
      score: 0.8,
      notes: "All five questions ask why or how.",
      scoring_method_used: "llm_decode",
    });
    expect(pedagogy?.llm_invocation?.prompt_hash).toBe(promptHash(system, user));
    expect(pedagogy?.llm_invocation?.response_hash).toBe(responseHash(answer));
    expect(pedagogy?.llm_invocation?.model).toContain("scripted-judge");
    expect(pedagogy?.llm_invocation?.usage.output_tokens).toBe(answer.split(/\s+/).length);
    expect(Number.isNaN(Date.parse(pedagogy?.llm_invocation?.timestamp ?? ""))).toBe(false);

    const count = evaluation.criterion_results.find((r) => r.criterion_id === "question_count");
    expect(count?.llm_invocation).toBeUndefined();
    // 0.4 · 1 + 0.6 · 0.8
    expect(evaluation.weighted_score).toBe(0.88);
    expect(evaluation.passed).toBe(true);
    expect(evaluation.feedback_summary).toBe(SUMMARY_TEXT);
    expect(llm.calls).toHaveLength(2);
  });

  it("says why an evaluation is held for human review, whatever the llm's summary says", async () => {
    // The judge quotes a question the quiz does not have: the evidence check holds the result.
    const answer = JSON.stringify({
      reasoning: "The questions ask why.",
      quotes: ["Why do cats purr at night?"],
      level_id: "good",
    });
    const llm = new ScriptedChatModel({ responder: decoder(answer) });
    const executor = new RubricExecutor({ functionRegistry: quizRegistry(), llm });
    const evaluation = await executor.evaluate(PEDAGOGY_RUBRIC, QUIZ);
    expect(evaluation.feedback_summary).toBe(SUMMARY_TEXT);
    expect(evaluation.passed).toBe(false);
    expect(evaluation.human_review_required).toBe(true);
    expect(evaluation.human_review_reasons).toEqual([
      expect.stringContaining("criterion pedagogy was met on quotes the content does not contain"),
    ]);
  });

  it("keeps the rubric format's deterministic summary when the llm gives no summary", async () => {
    const answer = JSON.stringify({ reasoning: "Recall questions.", level_id: "poor" });
    const llm = new ScriptedChatModel({
      responder: (messages) =>
        messages.some((m) => m.content.includes("structured result of an evaluation"))
          ? "   "
          : answer,
    });
    const executor = new RubricExecutor({
      functionRegistry: quizRegistry(),
      llm: createChatModel(llm, { maxRetries: 0 }),
    });
    const evaluation = await executor.evaluate(PEDAGOGY_RUBRIC, QUIZ);
    expect(llm.calls).toHaveLength(2);
    expect(evaluation.weighted_score).toBe(0.4);
    expect(evaluation.feedback_summary.split("\n").slice(0, 2)).toEqual([
      "Evaluation FAILED for rubric 'Quiz Pedagogy'.",
      "Overall score: 40%",
    ]);
    expect(evaluation.warnings.some((w) => w.startsWith("summary:"))).toBe(true);
  });

  it("reports an unparsable answer as 'unable_to_evaluate', the call still recorded", async () => {
    const garbage = "Hmm, these are decent questions overall, somewhere in the middle.";
    const llm = new ScriptedChatModel({ responder: decoder(garbage) });
    const executor = new RubricExecutor({ functionRegistry: quizRegistry(), llm });
    const evaluation = await executor.evaluate(PEDAGOGY_RUBRIC, QUIZ);

    const pedagogy = evaluation.criterion_results.find((r) => r.criterion_id === "pedagogy");
    expect(pedagogy?.level_id).toBe("unable_to_evaluate");
    expect(pedagogy?.score).toBeNull();
    expect(pedagogy?.notes).not.toBe("");
    expect(pedagogy?.llm_invocation?.response_hash).toBe(responseHash(garbage));
    expect(evaluation.passed).toBe(false);
  });

  it("an llm that cannot be reached: llm_decode criteria 'unable_to_evaluate', the deterministic ones kept", async () => {
    const down = new ScriptedChatModel({
      responder: () => {
        throw new ModelUnavailableError("connection-refused", "connect ECONNREFUSED", {
          provider: "scripted",
        });
      },
    });
    const executor = new RubricExecutor({
      functionRegistry: quizRegistry(),
      llm: createChatModel(down, { maxRetries: 0 }),
    });
    const evaluation = await executor.evaluate(PEDAGOGY_RUBRIC, QUIZ);

    const pedagogy = evaluation.criterion_results.find((r) => r.criterion_id === "pedagogy");
    expect(pedagogy).toMatchObject({ level_id: "unable_to_evaluate", score: null });
    expect(pedagogy?.notes).toContain("connect ECONNREFUSED");
    expect(pedagogy?.llm_invocation?.error).toContain("connect ECONNREFUSED");
    const count = evaluation.criterion_results.find((r) => r.criterion_id === "question_count");
    expect(count).toMatchObject({ level_id: "pass", score: 1 });
    expect(evaluation.weighted_score).toBe(1);
    expect(evaluation.passed).toBe(false);
    // The model-written summary is not asked of a model that answered nothing.
    expect(evaluation.feedback_summary.split("\n")[0]).toBe(
      "Evaluation FAILED for rubric 'Quiz Pedagogy'.",
    );
  });

  it("without an llm, reports llm_decode criteria as 'unable_to_evaluate' instead of failing", async () => {
    const executor = new RubricExecutor({ functionRegistry: quizRegistry() });
    const evaluation = await executor.evaluate(PEDAGOGY_RUBRIC, QUIZ);

    const pedagogy = evaluation.criterion_results.find((r) => r.criterion_id === "pedagogy");
    expect(pedagogy).toMatchObject({
      level_id: "unable_to_evaluate",
      score: null,
      notes: NO_JUDGE_NOTE,
      scoring_method_used: "llm_decode",
    });
    expect(pedagogy?.llm_invocation).toBeUndefined();
    const count = evaluation.criterion_results.find((r) => r.criterion_id === "question_count");
    expect(count?.level_id).toBe("pass");
    expect(evaluation.weighted_score).toBe(1);
    expect(evaluation.passed).toBe(false);
    expect(evaluation.warnings).toContain(`pedagogy: ${NO_JUDGE_NOTE}`);
    expect(evaluation.feedback_summary.split("\n")[0]).toBe(
      "Evaluation FAILED for rubric 'Quiz Pedagogy'.",
    );
    expect(evaluation.feedback_summary).toContain("- Pedagogical Quality: not evaluated");
  });

  it("gives no weighted_score (null, never 0) when no criterion could be evaluated", async () => {
    const onlyModel = { ...PEDAGOGY_RUBRIC, criteria: [PEDAGOGY_RUBRIC.criteria[1]] };
    const down = new ScriptedChatModel({
      responder: () => {
        throw new ModelUnavailableError("connection-refused", "connect ECONNREFUSED", {
          provider: "scripted",
        });
      },
    });
    const executor = new RubricExecutor({ llm: createChatModel(down, { maxRetries: 0 }) });
    const evaluation = await executor.evaluate(onlyModel, QUIZ);

    expect(evaluation.criterion_results.map((r) => [r.level_id, r.score])).toEqual([
      ["unable_to_evaluate", null],
    ]);
    expect(evaluation.weighted_score).toBeNull();
    expect(evaluation.passed).toBe(false);
    expect(evaluation.feedback_summary.split("\n")[1]).toBe(
      "Overall score: none (no weighted criterion could be evaluated)",
    );
    expect(RubricEvaluationSchema.parse(evaluation)).toEqual(evaluation);
  });
});
