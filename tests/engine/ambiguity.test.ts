/**
 * An ambiguous answer through the engine, in every mode: the criterion is a judge error (not
 * evaluated, its gate cannot pass), and the repair and fallback rounds run as they do for any
 * other unreadable answer — per criterion: no second call; batch and grouped: one repair round,
 * then one call per criterion still unanswered.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CriteriaEngine } from "../../src/engine/apis/criteriaEngine.js";
import { PromptEvaluator } from "../../src/engine/apis/promptEvaluator.js";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import {
  type OllamaServer,
  type RecordedMessage,
  ScriptedChatModel,
  startOllamaServer,
} from "../doubles/index.js";
import {
  catalogOf,
  judgeOf,
  systemPromptOf,
  tableAnswer,
  titleIn,
  userPromptOf,
} from "./helpers.js";
import { quizJudge, quizRubric } from "./quizRubric.js";

const CONTENT = [
  "Wasserwerk Nord e.V., Am Deich 4, Bremen, retrofits three pumping stations with variable drives.",
  "Energy use is expected to fall by a fifth; two municipal partners co-fund the pilot.",
].join("\n");

function catalog() {
  return catalogOf({
    id: "retrofit",
    name: "Retrofit call",
    version: "1",
    passingThreshold: 0.5,
    criteria: [
      {
        id: "seat",
        title: "Seat in Bremen",
        description: "Is the applicant based in Bremen?",
        weight: 1,
        knockout: true,
        method: { kind: "check" },
      },
      {
        id: "savings",
        title: "Energy savings",
        description: "Rate the expected energy savings (1-5).",
        weight: 1,
        critical: true,
        method: { kind: "score", scale: { min: 1, max: 5, integer: true } },
      },
      {
        id: "partners",
        title: "Co-funding partners",
        description: "Rate the co-funding commitment (1-5).",
        weight: 1,
        method: { kind: "score", scale: { min: 1, max: 5, integer: true } },
      },
      {
        id: "clarity",
        title: "Clarity",
        description: "How clear is the text?",
        weight: 1,
        method: {
          kind: "levels",
          levels: [
            { id: "murky", label: "Murky", score: 0 },
            { id: "plain", label: "Plain", score: 0.7 },
            { id: "crisp", label: "Crisp", score: 1 },
          ],
        },
      },
    ],
  });
}

const CLEAN: Readonly<Record<string, string>> = {
  "Seat in Bremen": '{"reasoning": "Am Deich 4, Bremen.", "result": "pass"}',
  "Energy savings": '{"reasoning": "A fifth less energy.", "score": 4}',
  "Co-funding partners": '{"reasoning": "Two partners co-fund.", "score": 4}',
  Clarity: '{"reasoning": "Short and exact.", "level_id": "crisp"}',
};

const AMBIGUOUS_SAVINGS = '{"reasoning": "A fifth less energy.", "score": 2, "score": 5}';

/** Answers single prompts by title (with overrides) and group prompts with `table(ids, n)`. */
function judge(
  overrides: Record<string, string> = {},
  table?: (ids: string[], callNumber: number) => string,
) {
  const answers = { ...CLEAN, ...overrides };
  return new ScriptedChatModel({
    responder: (messages: RecordedMessage[], n: number) => {
      const prompt = userPromptOf(messages);
      const ids = /one row per criterion in this order:\n(.+)\.\n/.exec(prompt)?.[1]?.split(", ");
      if (ids !== undefined && table !== undefined) return table(ids, n);
      if (/Your answer could not be read/.test(prompt) && table !== undefined) {
        const asked = /with exactly one row for each of: (.+)\.$/m.exec(prompt)?.[1] ?? "";
        return table(asked.split(", "), n);
      }
      const title = titleIn(prompt) ?? "";
      const answer = answers[title];
      if (answer === undefined) throw new Error(`no answer for ${title}`);
      return answer;
    },
  });
}

const ROWS: Readonly<Record<string, string>> = {
  seat: '  seat,pass,"","Am Deich 4, Bremen."',
  savings: '  savings,4,"","A fifth less energy."',
  partners: '  partners,4,"","Two partners co-fund."',
  clarity: '  clarity,crisp,"","Short and exact."',
};

function tableOf(ids: readonly string[], rows: Readonly<Record<string, string>> = ROWS): string {
  const body = ids.map((id) => rows[id] ?? "");
  return [`results[${body.length}]{id,score,quotes,reasoning}:`, ...body].join("\n");
}

/** The same ids answered in two tables; the second gives `savings` 1 instead of 4. */
function twoTablesDisagreeing(ids: readonly string[]): string {
  const second = { ...ROWS, savings: '  savings,1,"","Hardly any saving."' };
  return `${tableOf(ids)}\n\nCorrection:\n\n${tableOf(ids, second)}`;
}

function run(model: ScriptedChatModel, mode: "per-criterion" | "batch" | "grouped") {
  return evaluateContent({
    content: CONTENT,
    catalog: catalog(),
    model: judgeOf(model),
    mode,
    parallelSlots: 2,
  });
}

function callsNaming(model: ScriptedChatModel, title: string): number {
  return model.calls.filter((c) => titleIn(userPromptOf(c.messages)) === title).length;
}

describe("per-criterion mode", () => {
  it("a score given twice is a judge error: not evaluated, the critical gate cannot pass", async () => {
    const model = judge({ "Energy savings": AMBIGUOUS_SAVINGS });
    const result = await run(model, "per-criterion");

    const savings = result.criteria.find((c) => c.id === "savings");
    expect(savings).toMatchObject({ evaluated: false, score: null, met: null });
    expect(savings?.judgeError).toContain("the answer gives 'score' twice: 2 and 5");
    expect(result.notEvaluated).toEqual(["savings"]);
    expect(result.passed).toBe(false);
    expect(result.verdict).not.toBe("pass");
    // As for any unreadable answer in this mode: no second call.
    expect(callsNaming(model, "Energy savings")).toBe(1);
    expect(model.calls).toHaveLength(4);
  });

  it("a check whose two decisive fields disagree is a judge error on the knockout", async () => {
    const model = judge({
      "Seat in Bremen": '{"reasoning": "Bremen.", "result": "pass", "verdict": "fail"}',
    });
    const result = await run(model, "per-criterion");
    const seat = result.criteria.find((c) => c.id === "seat");
    expect(seat?.evaluated).toBe(false);
    expect(seat?.judgeError).toContain("'result' pass and 'verdict' fail");
    expect(result.passed).toBe(false);
  });

  it("a score beside a verdict word that says otherwise is a judge error; the catalog's threshold decides", async () => {
    const model = judge({
      "Energy savings": '{"reasoning": "A fifth less energy.", "score": 5, "verdict": "fail"}',
      // 3 on 1–5 is 0.5: met under this catalog's 0.5, so "pass" agrees with it.
      "Co-funding partners":
        '{"reasoning": "Two partners co-fund.", "score": 3, "verdict": "pass"}',
    });
    const result = await run(model, "per-criterion");
    const savings = result.criteria.find((c) => c.id === "savings");
    expect(savings).toMatchObject({ evaluated: false, score: null, met: null });
    expect(savings?.judgeError).toContain(
      "'score' 5 meets the threshold 0.5 but 'verdict' says fail",
    );
    expect(result.criteria.find((c) => c.id === "partners")).toMatchObject({
      evaluated: true,
      native: 3,
      met: true,
    });
    expect(result.passed).toBe(false);
  });

  it("a level given twice is a judge error, and the answer is not kept in the cache", async () => {
    const model = judge({
      Clarity: '{"level_id": "crisp", "reasoning": "Short.", "level_id": "murky"}',
    });
    const result = await run(model, "per-criterion");
    expect(result.criteria.find((c) => c.id === "clarity")?.judgeError).toContain(
      "'level_id' twice",
    );
    expect(result.cacheHits).toBe(0);
  });
});

describe("batch mode", () => {
  it("two tables that disagree: one repair round naming the ambiguity, then one call for what is still ambiguous", async () => {
    const model = judge({ "Energy savings": AMBIGUOUS_SAVINGS }, (ids) =>
      twoTablesDisagreeing(ids),
    );
    const result = await run(model, "batch");

    // batch call, repair round, one call for savings.
    expect(model.calls).toHaveLength(3);
    const repair = userPromptOf(model.calls[1]?.messages ?? []);
    expect(repair).toContain("the answer gives savings twice: 4 and 1");
    expect(repair).toContain("with exactly one row for each of: savings.");
    expect(callsNaming(model, "Energy savings")).toBe(1);
    const savings = result.criteria.find((c) => c.id === "savings");
    expect(savings?.evaluated).toBe(false);
    expect(savings?.judgeError).toContain("the answer gives 'score' twice: 2 and 5");
    expect(result.criteria.filter((c) => c.evaluated).map((c) => c.id)).toEqual([
      "seat",
      "partners",
      "clarity",
    ]);
    expect(result.passed).toBe(false);
    expect(result.warnings.join("\n")).toContain("the answer gives savings twice: 4 and 1");
  });

  it("a repair round that answers once settles the criterion from the repair", async () => {
    const model = judge({}, (ids, n) => (n === 1 ? twoTablesDisagreeing(ids) : tableOf(ids)));
    const result = await run(model, "batch");
    expect(model.calls).toHaveLength(2);
    expect(result.criteria.find((c) => c.id === "savings")).toMatchObject({
      evaluated: true,
      native: 4,
    });
    expect(result.notEvaluated).toEqual([]);
  });

  it("a verdict column that contradicts a score is repaired like an unreadable row", async () => {
    const withVerdict = (ids: readonly string[]) => {
      const rows = ids.map((id) => {
        const row = (ROWS[id] ?? "").replace(/^ {2}(\w+),([^,]+),/, "  $1,$2,pass,");
        return id === "savings" ? '  savings,5,fail,"","A fifth less energy."' : row;
      });
      return [`results[${rows.length}]{id,score,verdict,quotes,reasoning}:`, ...rows].join("\n");
    };
    const model = judge({}, (ids, n) => (n === 1 ? withVerdict(ids) : tableOf(ids)));
    const result = await run(model, "batch");
    // The batch call, then a repair round for savings alone, answered cleanly.
    expect(model.calls).toHaveLength(2);
    expect(userPromptOf(model.calls[1]?.messages ?? [])).toContain(
      "with exactly one row for each of: savings.",
    );
    expect(result.warnings.join("\n")).toContain(
      "the answer's 'score' 5 meets the threshold 0.5 but 'verdict' says fail",
    );
    expect(result.criteria.find((c) => c.id === "savings")).toMatchObject({ native: 4 });
    expect(result.notEvaluated).toEqual([]);
  });

  it("two tables that agree are one answer: one call", async () => {
    const model = judge({}, (ids) => `${tableOf(ids)}\n\n${tableOf(ids)}`);
    const result = await run(model, "batch");
    expect(model.calls).toHaveLength(1);
    expect(result.notEvaluated).toEqual([]);
    expect(result.passed).toBe(true);
  });
});

describe("grouped mode", () => {
  it("a group whose rows disagree is repaired, then asked per criterion, like any unreadable row", async () => {
    const rowsDisagreeing = (ids: string[]) => {
      const rows = ids.map((id) => ROWS[id] ?? "");
      if (ids.includes("partners")) rows.push('  partners,2,"","Only one letter of intent."');
      return [`results[${rows.length}]{id,score,quotes,reasoning}:`, ...rows].join("\n");
    };
    const model = judge(
      { "Co-funding partners": '{"score": 4, "reasoning": "Two.", "Score": 2}' },
      rowsDisagreeing,
    );
    const result = await run(model, "grouped");

    expect(result.judgeMode).toEqual({ mode: "grouped", groups: 2 });
    // Two group calls, one repair round for the group with partners, one call for partners.
    expect(model.calls).toHaveLength(4);
    const partners = result.criteria.find((c) => c.id === "partners");
    expect(partners?.evaluated).toBe(false);
    expect(partners?.judgeError).toContain("the answer gives 'score' twice: 4 and 2");
    expect(result.warnings.join("\n")).toContain("the answer gives partners twice: 4 and 2");
  });
});

describe("a panel member's ambiguous answer", () => {
  it("is that member's gap: the criterion is decided by the others and held for review", async () => {
    const steady = judge();
    const wavering = judge({ "Energy savings": AMBIGUOUS_SAVINGS });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: catalog(),
      judges: [judgeOf(steady), judgeOf(wavering)],
    });
    const savings = result.criteria.find((c) => c.id === "savings");
    const gap = savings?.panel?.answers.find((a) => !a.evaluated);
    expect(gap?.judgeError).toContain("the answer gives 'score' twice: 2 and 5");
    expect(result.humanReviewRequired).toBe(true);
    expect(result.passed).toBe(false);
    // The warning names the gap; its reason stays in the member's answer (administrators').
    expect(result.warnings).toContain("savings: judge scripted:scripted-judge gave no answer");
  });
});

describe("the injection guard's ambiguous answer", () => {
  it("is a failed guard: the result is held for review, naming the ambiguity", async () => {
    const model = new ScriptedChatModel({
      guard: "script", // this test answers the injection guard's prompts itself
      responder: (messages) => {
        if (/security classifier/.test(systemPromptOf(messages))) {
          return '{"reasoning": "Plain text.", "instruction_bearing": true, "instruction_bearing": false}';
        }
        return CLEAN[titleIn(userPromptOf(messages)) ?? ""] ?? "";
      },
    });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: catalog(),
      model: judgeOf(model),
      injectionGuard: true,
    });
    expect(result.humanReviewRequired).toBe(true);
    expect(result.passed).toBe(false);
    expect(result.humanReviewReasons?.join("\n")).toContain(
      "the guard's answer gives 'instruction_bearing' twice: true and false",
    );
  });
});

describe("the documented API classes", () => {
  it("CriteriaEngine.evaluateCriterion: an ambiguous check is not evaluated and not met", async () => {
    const model = new ScriptedChatModel({
      script: ['{"reasoning": "Bremen address.", "passed": true, "result": "fail"}'],
    });
    const engine = new CriteriaEngine({ model: judgeOf(model) });
    const result = await engine.evaluateCriterion(
      {
        id: "seat",
        title: "Seat in Bremen",
        description: "Is the applicant based in Bremen?",
        weight: 1,
        method: { kind: "check" },
      },
      CONTENT,
    );
    expect(result).toMatchObject({ evaluated: false, met: null, score: null });
    expect(result.judgeError).toContain("decisions that disagree");
  });

  it("PromptEvaluator freeform: an ambiguous score is verdict error, never pass", async () => {
    const model = new ScriptedChatModel({
      script: ['{"score": 0.9, "reasoning": "Names pumps.", "score": 0.2}'],
    });
    const evaluator = new PromptEvaluator({ model });
    const result = await evaluator.evaluate({
      question: "What does the retrofit change?",
      candidateAnswer: "Variable drives on three pumps.",
    });
    expect(model.calls).toHaveLength(1);
    expect(result.verdict).toBe("error");
    expect(result.judgeError).toContain("'score' twice: 0.9 and 0.2");
  });

  it("PromptEvaluator rubric mode: an item answered twice differently is that item's judge error", async () => {
    const twice = [
      ["count", "pass", "Three stations."],
      ["count", "fail", "Only two stations."],
    ] as const;
    const model = new ScriptedChatModel({
      script: [
        tableAnswer([["drives", "pass", "Drives are named."], ...twice]),
        tableAnswer(twice),
        '{"reasoning": "Three stations.", "result": "pass", "result": "fail"}',
      ],
    });
    const evaluator = new PromptEvaluator({
      model,
      rubrics: [
        { id: "drives", expected_outcome: "Names variable drives" },
        { id: "count", expected_outcome: "Names three stations", required: true },
      ],
    });
    const result = await evaluator.evaluate({
      question: "What does the retrofit change?",
      candidateAnswer: "Variable drives on three pumps.",
    });
    // The table, its repair round and the item's own call each said two things.
    expect(model.calls).toHaveLength(3);
    expect(result.verdict).not.toBe("pass");
    expect(result.rubricResults?.map((r) => r.result)).toEqual(["pass", "error"]);
    expect(result.judgeError).toContain("'count'");
    expect(result.judgeError).toContain("gives 'result' twice");
  });

  it("RubricExecutor: an ambiguous decode answer leaves the criterion unable to evaluate", async () => {
    const llm = quizJudge(
      '{"reasoning": "Mostly why questions.", "level_id": "good", "level_id": "poor"}',
    );
    const evaluation = await new RubricExecutor({ llm }).evaluate(
      quizRubric({
        type: "llm_decode",
        decode_prompt: "Judge these questions: {{ questions }}",
        decode_output_schema: {
          type: "object",
          properties: { level_id: { type: "string" } },
          required: ["level_id"],
        },
      }),
      { questions: ["Why do pumps cavitate?"] },
    );
    const result = evaluation.criterion_results[0];
    expect(result?.level_id).toBe("unable_to_evaluate");
    expect(result?.notes).toContain("the answer gives 'level_id' twice");
    expect(evaluation.passed).toBe(false);
  });
});

describe("through the Ollama protocol", () => {
  let server: OllamaServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("batch: disagreeing tables, a repair round and a per-criterion call, each a real chat request", async () => {
    server = await startOllamaServer({
      models: ["qwen2.5:7b-instruct"],
      responder: (request) => {
        const prompt = request.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
        const ids = /one row per criterion in this order:\n(.+)\.\n/.exec(prompt)?.[1];
        if (ids !== undefined) return twoTablesDisagreeing(ids.split(", "));
        if (/Your answer could not be read/.test(prompt)) return twoTablesDisagreeing(["savings"]);
        return AMBIGUOUS_SAVINGS;
      },
    });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: catalog(),
      model: createChatModel("ollama:qwen2.5:7b-instruct", {
        baseUrl: server.url,
        env: {},
        maxRetries: 0,
        timeoutMs: 5_000,
      }),
      mode: "batch",
    });
    expect(server.chatRequests()).toHaveLength(3);
    expect(result.traces.map((t) => t.purpose)).toEqual(["batch", "repair", "criterion"]);
    const savings = result.criteria.find((c) => c.id === "savings");
    expect(savings?.evaluated).toBe(false);
    expect(savings?.judgeError).toContain("the answer gives 'score' twice: 2 and 5");
    expect(result.rawResponse).toMatchObject({ savings: AMBIGUOUS_SAVINGS });
    expect(result.passed).toBe(false);
  });
});
