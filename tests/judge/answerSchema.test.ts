import { describe, expect, it } from "vitest";
import { CatalogSchema, type CriterionInput } from "../../src/criteria/model.js";
import { answerJsonSchema } from "../../src/judge/answerSchema.js";
import { parseJudgeResponse } from "../../src/judge/parse.js";

function criterion(method: CriterionInput["method"]) {
  const catalog = CatalogSchema.parse({
    id: "t",
    name: "T",
    version: "1",
    criteria: [{ id: "c", title: "C", description: "Judge C", weight: 1, method }],
  });
  const [only] = catalog.criteria;
  if (only === undefined) throw new Error("no criterion");
  return only;
}

const levels = [
  { id: "weak", label: "Weak", description: "thin", score: 0 },
  { id: "strong", label: "Strong", description: "solid", score: 1 },
];

describe("answerJsonSchema: the answer contract as a JSON Schema", () => {
  it("levels: reasoning first, the quotes, then one of the level ids", () => {
    const schema = answerJsonSchema(criterion({ kind: "levels", levels }));
    expect(schema).toMatchObject({
      properties: { level_id: { type: "string", enum: ["weak", "strong"] } },
      required: ["reasoning", "quotes", "level_id"],
    });
    expect(Object.keys((schema as { properties: object }).properties)).toEqual([
      "reasoning",
      "quotes",
      "level_id",
    ]);
  });

  it("every judged method asks for at most three quotes of at most 300 characters", () => {
    for (const method of [
      { kind: "score" as const, scale: { min: 1, max: 5, integer: true } },
      { kind: "check" as const },
      { kind: "levels" as const, levels },
    ]) {
      expect(answerJsonSchema(criterion(method))).toMatchObject({
        properties: { quotes: { type: "array", maxItems: 3, items: { maxLength: 300 } } },
      });
    }
  });

  it("the parser keeps the quotes, at most three, each cut to 300 characters (noted)", () => {
    const c = criterion({ kind: "check" });
    const long = "x".repeat(320);
    const answer = parseJudgeResponse(
      JSON.stringify({
        reasoning: "The budget is itemised.",
        quotes: ["  Staff costs: 40,000 EUR ", long, "third", "fourth"],
        result: "pass",
      }),
      c,
    );
    expect(answer.quotes).toEqual(["Staff costs: 40,000 EUR", "x".repeat(300), "third"]);
    expect(answer.notes).toEqual([
      "only the first 3 of 4 quotes are checked",
      "a quote of 320 characters was cut to 300",
    ]);
  });

  it("score on 0–1 and point coverage are numbers within 0–1; hits and misses at most two", () => {
    for (const method of [
      { kind: "score" as const, scale: { min: 0, max: 1 } },
      { kind: "point" as const, text: "Covers the deadline" },
    ]) {
      expect(answerJsonSchema(criterion(method))).toMatchObject({
        properties: {
          score: { type: "number", minimum: 0, maximum: 1 },
          hits: { type: "array", maxItems: 2 },
          misses: { type: "array", maxItems: 2 },
        },
      });
    }
  });

  it("deterministic methods have no judge answer", () => {
    expect(answerJsonSchema(criterion({ kind: "function", name: "contains", args: "x" }))).toBe(
      undefined,
    );
  });

  it("an answer shaped by the schema is a usable answer for the parser", () => {
    const c = criterion({ kind: "levels", levels });
    const answer = parseJudgeResponse(
      JSON.stringify({ reasoning: "Clear evidence on page 2.", level_id: "strong" }),
      c,
    );
    expect(answer.usable).toBe(true);
    expect(answer.level).toBe("strong");
  });
});
