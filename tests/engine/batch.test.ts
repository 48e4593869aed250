/** Batch mode through evaluateContent: one TOON table, one repair round, then per criterion. */
import { describe, expect, it } from "vitest";
import { EvaluationModelError } from "../../src/engine/errors.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { ModelUnavailableError } from "../../src/llm/errors.js";
import { ScriptedChatModel, type ScriptStep, withScreeningLine } from "../doubles/index.js";
import {
  answerByTitle,
  catalogOf,
  checkAnswer,
  judgeOf,
  levelAnswer,
  scoreAnswer,
  systemPromptOf,
  userPromptOf,
} from "./helpers.js";

const CONTENT = [
  "Nordlicht GmbH, Hafenstrasse 1, Hamburg, builds a sensor fusion system for harbour cranes.",
  "The regional market is about 40 cranes. The text is structured with concrete examples.",
].join("\n");

function catalog() {
  return catalogOf({
    id: "batchable",
    name: "Batchable catalog",
    version: "3",
    criteria: [
      {
        id: "c1",
        title: "Hamburg Base",
        description: "Is the company based in Hamburg?",
        weight: 1,
        knockout: true,
        method: { kind: "check" },
      },
      {
        id: "c2",
        title: "Innovation",
        description: "Rate the technological innovation (1-5).",
        weight: 0.4,
        method: { kind: "score", scale: { min: 1, max: 5, integer: true } },
      },
      {
        id: "c3",
        title: "Market",
        description: "Rate the market potential (1-5).",
        weight: 0.3,
        method: { kind: "score", scale: { min: 1, max: 5, integer: true } },
      },
      {
        id: "clarity",
        title: "Clarity",
        description: "How clear and understandable is the content?",
        weight: 0.3,
        method: {
          kind: "levels",
          levels: [
            { id: "fail", label: "Fail", description: "Unclear", score: 0 },
            { id: "pass", label: "Pass", description: "Understandable", score: 0.7 },
            { id: "excellent", label: "Excellent", description: "Crystal clear", score: 1 },
          ],
        },
      },
    ],
  });
}

const ROWS = {
  c1: '  c1,pass,"Registered office at Hafenstrasse 1, Hamburg."',
  c2: '  c2,4,"A sensor fusion method new to harbour cranes."',
  c3: '  c3,3,"A regional market of about 40 cranes."',
  clarity: '  clarity,excellent,"Structured, with concrete examples."',
};

function table(rows: readonly string[], count = rows.length): string {
  return [`results[${count}]{id,score,reasoning}:`, ...rows].join("\n");
}

const VALID = table([ROWS.c1, ROWS.c2, ROWS.c3, ROWS.clarity]);

/** Per-criterion answers, for what the batch leaves missing. */
const SINGLE = answerByTitle({
  "Hamburg Base": checkAnswer("pass", "Hamburg address given."),
  Innovation: scoreAnswer(5, "Clearly new."),
  Market: scoreAnswer(2, "Small market."),
  Clarity: levelAnswer("pass", "Understandable."),
});

function modelWith(script: readonly ScriptStep[]) {
  return new ScriptedChatModel({ script, responder: SINGLE });
}

function run(model: ScriptedChatModel) {
  return evaluateContent({
    content: CONTENT,
    catalog: catalog(),
    model: judgeOf(model),
    mode: "batch",
  });
}

describe("batch mode", () => {
  it("judges every LLM criterion with one call answered as a TOON table", async () => {
    const model = modelWith([VALID]);
    const result = await run(model);

    expect(model.calls).toHaveLength(1);
    const call = model.calls[0]!;
    const prompt = userPromptOf(call.messages);
    expect(prompt).toContain("results[4]{id,score,quotes,reasoning}:");
    for (const [id, title] of [
      ["c1", "Hamburg Base"],
      ["c2", "Innovation"],
      ["c3", "Market"],
      ["clarity", "Clarity"],
    ]) {
      expect(prompt).toContain(`[${id}] ${title}`);
    }
    expect(prompt).toContain(CONTENT);

    expect(result.scores).toEqual({ c1: 1, c2: 0.75, c3: 0.5, clarity: 1 });
    // c1 is a knockout: left out of the total. (0.4·0.75 + 0.3·0.5 + 0.3·1) / 1.0
    expect(result.overallScore).toBeCloseTo(0.75, 10);
    expect(result.criteria.find((c) => c.id === "clarity")).toMatchObject({
      level: "excellent",
      reasoning: "Structured, with concrete examples.",
    });
    expect(result.criteria.find((c) => c.id === "c1")?.reasoning).toBe(
      "Registered office at Hafenstrasse 1, Hamburg.",
    );
    expect(result.traces).toHaveLength(1);
    const [trace] = result.traces;
    expect(trace).toMatchObject({
      purpose: "batch",
      criterionIds: ["c1", "c2", "c3", "clarity"],
      userPrompt: prompt,
      systemPrompt: systemPromptOf(call.messages),
      rawResponse: withScreeningLine(VALID),
    });
    const raw = withScreeningLine(VALID); // the guard's screening line, then the table
    expect(result.rawResponse).toEqual({ c1: raw, c2: raw, c3: raw, clarity: raw });
    expect(result.warnings.filter((w) => w.startsWith("batch:"))).toEqual([]);
  });

  it.each([
    ["prose", "All four criteria look fine to me; the proposal is strong."],
    ["a wrong row count", table([ROWS.c1, ROWS.c2, ROWS.c3], 4)],
    ["a row too wide", table([ROWS.c1, ROWS.c2, ROWS.c3, `${ROWS.clarity},extra`])],
  ])("repairs %s with exactly one more call", async (_what, first) => {
    const model = modelWith([first, VALID]);
    const result = await run(model);

    expect(model.calls).toHaveLength(2);
    const repair = model.calls[1]!;
    expect(repair.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(repair.messages[1]?.content).toBe(userPromptOf(model.calls[0]!.messages));
    expect(repair.messages[2]?.content).toBe(withScreeningLine(first));
    const repairPrompt = userPromptOf(repair.messages);
    expect(repairPrompt).toContain("results[4]{id,score,quotes,reasoning}:");
    expect(repairPrompt).toContain("c1, c2, c3, clarity");

    expect(result.traces.map((t) => t.purpose)).toEqual(["batch", "repair"]);
    expect(result.traces[1]?.userPrompt).toContain(repairPrompt);
    expect(result.scores).toEqual({ c1: 1, c2: 0.75, c3: 0.5, clarity: 1 });
    expect(result.warnings.some((w) => w.startsWith("batch: batch answer incomplete"))).toBe(true);
  });

  it("repairs only the rows it could not use (a bad cell)", async () => {
    const first = table([ROWS.c1, '  c2,four,"Quite new."', ROWS.c3, ROWS.clarity]);
    const repaired = table(['  c2,5,"Clearly beyond the state of the art."']);
    const model = modelWith([first, repaired]);
    const result = await run(model);

    expect(model.calls).toHaveLength(2);
    const repairPrompt = userPromptOf(model.calls[1]!.messages);
    expect(repairPrompt).toContain("results[1]{id,score,quotes,reasoning}:");
    expect(repairPrompt).toContain("exactly one row for each of: c2.");
    expect(result.scores).toEqual({ c1: 1, c2: 1, c3: 0.5, clarity: 1 });
    expect(result.rawResponse).toMatchObject({ c1: withScreeningLine(first), c2: repaired });
    expect(result.warnings.some((w) => w.includes("row for c2 unusable"))).toBe(true);
  });

  it("asks per criterion for exactly the rows still missing after the repair", async () => {
    const first = table([ROWS.c1, '  c2,four,"Quite new."', ROWS.c3, ROWS.clarity]);
    const model = modelWith([first, "Sorry, I cannot produce the table."]);
    const result = await run(model);

    expect(model.calls).toHaveLength(3);
    const single = userPromptOf(model.calls[2]!.messages);
    expect(single).toContain("Criterion: Innovation");
    expect(single).not.toContain("results[");
    expect(result.traces.map((t) => t.purpose)).toEqual(["batch", "repair", "criterion"]);
    expect(result.traces[2]?.criterionIds).toEqual(["c2"]);
    expect(result.scores).toEqual({ c1: 1, c2: 1, c3: 0.5, clarity: 1 });
    expect(result.warnings.some((w) => w.includes("asking per criterion for: c2"))).toBe(true);
  });

  it("falls back to one call per criterion when neither answer can be read", async () => {
    const model = modelWith(["No table here.", "Still no table."]);
    const result = await run(model);

    expect(model.calls).toHaveLength(6);
    const singles = model.calls.slice(2).map((c) => userPromptOf(c.messages));
    expect(singles.filter((p) => p.includes("Criterion: Innovation"))).toHaveLength(1);
    expect(singles.filter((p) => p.includes("Requirement: Hamburg Base"))).toHaveLength(1);
    expect(result.scores).toEqual({ c1: 1, c2: 1, c3: 0.25, clarity: 0.7 });
    expect(result.traces.map((t) => t.purpose)).toEqual([
      "batch",
      "repair",
      "criterion",
      "criterion",
      "criterion",
      "criterion",
    ]);
  });

  it("asks again for a criterion a complete, valid table left out", async () => {
    const model = modelWith([table([ROWS.c1, ROWS.c2, ROWS.c3]), table([ROWS.clarity])]);
    const result = await run(model);

    expect(model.calls).toHaveLength(2);
    expect(userPromptOf(model.calls[1]!.messages)).toContain(
      "exactly one row for each of: clarity.",
    );
    expect(result.scores).toEqual({ c1: 1, c2: 0.75, c3: 0.5, clarity: 1 });
  });

  it("treats a row with an unknown level or an out-of-range score as missing", async () => {
    const first = table([
      ROWS.c1,
      '  c2,9,"Far beyond anything."',
      ROWS.c3,
      '  clarity,superb,"Very clear."',
    ]);
    const repaired = table([ROWS.c2, ROWS.clarity]);
    const model = modelWith([first, repaired]);
    const result = await run(model);

    expect(model.calls).toHaveLength(2);
    const repairPrompt = userPromptOf(model.calls[1]!.messages);
    expect(repairPrompt).toContain("results[2]{id,score,quotes,reasoning}:");
    expect(repairPrompt).toContain("exactly one row for each of: c2, clarity.");
    expect(result.scores).toEqual({ c1: 1, c2: 0.75, c3: 0.5, clarity: 1 });
    expect(result.criteria.find((c) => c.id === "c2")?.native).toBe(4);
  });

  it("asks per criterion when the batch call itself fails", async () => {
    const model = modelWith([
      new ModelUnavailableError("server-error", "overloaded", { provider: "scripted" }),
    ]);
    const result = await run(model);

    expect(model.calls).toHaveLength(5);
    expect(result.traces[0]).toMatchObject({ purpose: "batch", rawResponse: "" });
    expect(result.traces[0]?.error).toMatch(/ModelUnavailableError/);
    expect(result.notEvaluated).toEqual([]);
    expect(result.warnings).toContain(
      "batch: batch call failed (MODEL_UNAVAILABLE); asking per criterion",
    );
    expect(result.traces[0]?.error).toContain("overloaded"); // the model's error: in the trace only
    expect(result.warnings.filter((w) => w.includes("overloaded"))).toEqual([]);
  });

  it("TC-CRI-06 holds in batch mode: no relevant passage and no content → no call", async () => {
    const model = modelWith([]);
    const result = await evaluateContent({
      content: "",
      catalog: catalog(),
      documents: [
        { name: "recipes.md", text: "Whisk two eggs with flour, bake for twenty minutes." },
      ],
      model: judgeOf(model),
      mode: "batch",
    });
    expect(model.calls).toHaveLength(0);
    expect(result.notEvaluated).toEqual(["c1", "c2", "c3", "clarity"]);
  });

  it("throws EvaluationModelError when the batch call and every per-criterion call fail", async () => {
    const down = () => new ModelUnavailableError("server-error", "down", { provider: "scripted" });
    const model = new ScriptedChatModel({
      responder: () => {
        throw down();
      },
    });
    await expect(run(model)).rejects.toBeInstanceOf(EvaluationModelError);
    // The batch call, then one call per criterion.
    expect(model.calls).toHaveLength(5);
  });
});
