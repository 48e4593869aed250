/**
 * llm_decode criteria as the rubric document writes them: its Jinja decode_prompt and its
 * decode_output_schema, judged through the scripted model and through the Ollama protocol.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { type OllamaServer, ScriptedChatModel, startOllamaServer } from "../doubles/index.js";

/** The rubric document's decode_prompt example, as written there. */
const DOCUMENT_DECODE_PROMPT = `Evaluate the following questions for pedagogical quality:

{% for q in questions %}
- {{ q }}
{% endfor %}

Consider: Are the questions age-appropriate? Do they test understanding vs. memorization?
`;

/** The rubric document's decode_output_schema example, as written there. */
const DOCUMENT_OUTPUT_SCHEMA = {
  type: "object",
  properties: { level_id: { type: "string" } },
  required: ["level_id"],
};

const LEVELS = [
  { id: "poor", label: "Poor", description: "Recall of isolated facts only", score: 0 },
  { id: "good", label: "Good", description: "Most questions ask why or how", score: 0.7 },
  { id: "great", label: "Great", description: "Every question tests transfer", score: 1 },
];

function rubric(decodePrompt: string, extra: Record<string, unknown> = {}) {
  return {
    id: "quiz_pedagogy",
    name: "Quiz Pedagogy",
    description: "Pedagogical quality of a quiz",
    version: "1.0.0",
    target_type: "content",
    pass_threshold: 0.7,
    criteria: [
      {
        id: "pedagogy",
        name: "Pedagogical Quality",
        description: "Questions test understanding rather than memorisation",
        weight: 1,
        levels: LEVELS,
        scoring_method: {
          type: "llm_decode",
          decode_prompt: decodePrompt,
          decode_output_schema: DOCUMENT_OUTPUT_SCHEMA,
          ...extra,
        },
      },
    ],
  };
}

const QUIZ = { questions: ["Why does ice float on water?", "What is the capital of France?"] };

function userPromptOf(llm: ScriptedChatModel): string {
  return llm.calls[0]?.messages.find((m) => m.role === "user")?.content ?? "";
}

async function evaluateWith(answer: string, decodePrompt = DOCUMENT_DECODE_PROMPT) {
  const llm = new ScriptedChatModel({ responder: () => answer });
  const executor = new RubricExecutor({ llm });
  const evaluation = await executor.evaluate(rubric(decodePrompt), QUIZ);
  const result = evaluation.criterion_results[0];
  return { llm, evaluation, result };
}

describe("llm_decode with the rubric document's template", () => {
  it("renders the for loop and sends every level with its description", async () => {
    const answer = JSON.stringify({ reasoning: "One why question, one recall.", level_id: "good" });
    const { llm, result, evaluation } = await evaluateWith(answer);
    const user = userPromptOf(llm);
    expect(user).toContain("- Why does ice float on water?\n\n- What is the capital of France?");
    expect(user).not.toContain("{%");
    for (const level of LEVELS)
      expect(user).toContain(`id "${level.id}" — ${level.label}: ${level.description}`);
    expect(result).toMatchObject({
      level_id: "good",
      score: 0.7,
      scoring_method_used: "llm_decode",
    });
    expect(evaluation.passed).toBe(true);
  });

  it("does not repeat the level list when the template lists the levels itself", async () => {
    const template =
      "{% for l in levels %}[{{ l.id }}: {{ l.description }}]\n{% endfor %}{{ questions }}";
    const answer = JSON.stringify({ reasoning: "Transfer throughout.", level_id: "great" });
    const { llm } = await evaluateWith(answer, template);
    const user = userPromptOf(llm);
    expect(user).toContain("[great: Every question tests transfer]");
    expect(user).not.toContain("Levels, from lowest to highest");
    expect(user).toContain("Why does ice float on water?");
  });

  it("matches a prose answer that names exactly one level", async () => {
    const { result, evaluation } = await evaluateWith("I would classify this as great.");
    expect(result).toMatchObject({ level_id: "great", score: 1 });
    expect(evaluation.passed).toBe(true);
  });

  it("treats a prose answer naming two levels as a judge error, never a pass", async () => {
    const { result, evaluation } = await evaluateWith("It is somewhere between good and great.");
    expect(result?.level_id).toBe("unable_to_evaluate");
    expect(result?.score).toBeNull();
    expect(result?.notes).toContain("names 2 levels");
    expect(evaluation.passed).toBe(false);
  });

  it("rejects a JSON answer that does not follow decode_output_schema", async () => {
    const strict = rubric(DOCUMENT_DECODE_PROMPT, {
      decode_output_schema: { ...DOCUMENT_OUTPUT_SCHEMA, required: ["level_id", "confidence"] },
    });
    const llm = new ScriptedChatModel({
      responder: () => JSON.stringify({ reasoning: "fine", level_id: "great" }),
    });
    const evaluation = await new RubricExecutor({ llm }).evaluate(strict, QUIZ);
    const result = evaluation.criterion_results[0];
    expect(result?.level_id).toBe("unable_to_evaluate");
    expect(result?.notes).toContain("decode_output_schema");
    expect(result?.notes).toContain("confidence");
    expect(evaluation.passed).toBe(false);
  });

  // A template that does not compile is refused when the rubric is loaded
  // (tests/criteria/decodePromptAtLoad.test.ts); one that fails only when rendered is this
  // criterion's error.
  it("reports a template that fails when rendered as this criterion's error, naming the rubric and line", async () => {
    // Over a bound only with the rubric's own questions (the check at load renders none of them).
    const broken =
      "Questions:\n{% for q in questions %}- {{ q }}\n{% for i in (1..99999999) %}.{% endfor %}{% endfor %}";
    const llm = new ScriptedChatModel({ responder: () => "unused" });
    const evaluation = await new RubricExecutor({ llm }).evaluate(rubric(broken), QUIZ);
    const result = evaluation.criterion_results[0];
    expect(result?.level_id).toBe("unable_to_evaluate");
    expect(result?.notes).toContain("rubric 'quiz_pedagogy'");
    expect(result?.notes).toMatch(/line 3/);
    expect(evaluation.passed).toBe(false);
    // The judge is never asked about the criterion (only the summary is model-written).
    const asked = llm.calls.filter((c) => c.messages.some((m) => m.content.includes("Questions:")));
    expect(asked).toHaveLength(0);
  });
});

describe("llm_decode over the Ollama protocol", () => {
  let server: OllamaServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("sends decode_output_schema as the format, with the default seed, and records the seed", async () => {
    server = await startOllamaServer({
      responder: () => JSON.stringify({ reasoning: "Transfer questions.", level_id: "great" }),
    });
    const llm = createChatModel("ollama:qwen2.5:7b-instruct", { baseUrl: server.url, env: {} });
    const evaluation = await new RubricExecutor({ llm }).evaluate(
      rubric(DOCUMENT_DECODE_PROMPT),
      QUIZ,
    );
    const [request] = server.chatRequests();
    expect(request?.format).toEqual({
      type: "object",
      properties: {
        reasoning: expect.objectContaining({ type: "string" }),
        level_id: { type: "string", enum: ["poor", "good", "great"] },
      },
      required: ["reasoning", "level_id"],
    });
    expect(request?.options?.seed).toBe(42);
    const result = evaluation.criterion_results[0];
    expect(result).toMatchObject({ level_id: "great", score: 1 });
    expect(result?.llm_invocation?.seed).toBe(42);
  });

  it("takes the seed from EVALGATE_SEED, or sends none when it says none", async () => {
    server = await startOllamaServer({
      responder: () => JSON.stringify({ reasoning: "Recall only.", level_id: "poor" }),
    });
    for (const [value, expected] of [
      ["7", 7],
      ["none", undefined],
    ] as const) {
      const llm = createChatModel("ollama:qwen2.5:7b-instruct", {
        baseUrl: server.url,
        env: { EVALGATE_SEED: value },
      });
      await new RubricExecutor({ llm }).evaluate(rubric(DOCUMENT_DECODE_PROMPT), QUIZ);
      expect(server.chatRequests().at(-1)?.options?.seed).toBe(expected);
    }
  });
});
