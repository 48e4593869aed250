/**
 * A score past the ends of its scale: by default a judge error (fail-closed — 1.05, 85 and −0.01
 * on 0–1 are refused; rounding noise such as 1.0000001 is read as 1); with a catalog's
 * `outOfRange: "clamp"` a score up to 5% of the range past an end is read as that end, noted, and
 * farther is still an error. Read from every catalog form, in single and batch answers, and
 * through evaluateContent.
 */
import { describe, expect, it } from "vitest";
import { type Criterion, CriterionSchema } from "../../src/criteria/model.js";
import { parseCatalog } from "../../src/criteria/parse.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { readScore } from "../../src/judge/answerValues.js";
import { parseJudgeResponse } from "../../src/judge/parse.js";
import { parseBatchResponse } from "../../src/judge/parseBatch.js";
import { ScriptedChatModel } from "../doubles/index.js";

const UNIT = { min: 0, max: 1, integer: false };
const FIVE = { min: 1, max: 5, integer: true };

function scored(id: string, outOfRange?: unknown, scale = UNIT): Criterion {
  return CriterionSchema.parse({
    id,
    title: id,
    description: `Rate ${id}.`,
    weight: 1,
    method: { kind: "score", scale, ...(outOfRange === undefined ? {} : { outOfRange }) },
  });
}

const answer = (score: number) => JSON.stringify({ reasoning: "Solid.", score });

describe("a score off the scale, by default", () => {
  it("is a judge error: 1.05, 85 and −0.01 on 0–1 are refused", () => {
    for (const value of [1.05, 85, -0.01]) {
      const read = readScore(value, UNIT);
      expect(read.ok, String(value)).toBe(false);
      if (!read.ok) expect(read.error).toBe(`score ${value} is outside 0–1`);
    }
    const parsed = parseJudgeResponse(answer(1.05), scored("a"));
    expect(parsed.usable).toBe(false);
    expect(parsed.judgeError).toBe("score 1.05 is outside 0–1");
  });

  it("reads rounding noise as the end, with no note", () => {
    expect(readScore(1.0000001, UNIT)).toEqual({
      ok: true,
      value: { native: 1, score01: 1 },
      notes: [],
    });
  });
});

describe('outOfRange: "clamp"', () => {
  it("reads a score up to 5% of the range past an end as that end, noted", () => {
    const high = readScore(1.05, UNIT, "score", 0.05);
    expect(high).toEqual({
      ok: true,
      value: { native: 1, score01: 1 },
      notes: ["score 1.05 is outside 0–1: read as 1 (the catalog clamps it)"],
    });
    expect(readScore(-0.01, UNIT, "score", 0.05)).toMatchObject({
      ok: true,
      value: { native: 0, score01: 0 },
    });
    // On 1–5 the range is 4: 5% of it is 0.2, so 5.2 is read as 5 and 5.3 is refused.
    expect(readScore(5.2, FIVE, "score", 0.05)).toMatchObject({
      ok: true,
      value: { native: 5, score01: 1 },
    });
    expect(readScore(5.3, FIVE, "score", 0.05)).toEqual({
      ok: false,
      error:
        "score 5.3 is outside 1–5 by more than the 5% of the scale the catalog reads as its end",
    });
  });

  it("still refuses a score farther off: 1.06 and 85 on 0–1", () => {
    const criterion = scored("a", "clamp");
    expect(parseJudgeResponse(answer(1.06), criterion).judgeError).toBe(
      "score 1.06 is outside 0–1 by more than the 5% of the scale the catalog reads as its end",
    );
    expect(parseJudgeResponse(answer(85), criterion).usable).toBe(false);
    // { clamp: 0.1 } widens it to 10%: 1.1 is read as 1.
    expect(parseJudgeResponse(answer(1.1), scored("b", { clamp: 0.1 }))).toMatchObject({
      usable: true,
      score01: 1,
    });
  });

  it("is the same rule in a batch answer", () => {
    const criteria = [scored("a", "clamp"), scored("b")];
    const batch = parseBatchResponse(
      "results[2]{id,score,reasoning}:\n  a,1.05,Solid.\n  b,1.05,Solid.",
      criteria,
    );
    expect(batch.answers.get("a")).toMatchObject({ usable: true, score01: 1 });
    expect(batch.missing).toEqual(["b"]);
    expect(batch.notes.join("\n")).toContain("score 1.05 is outside 0–1");
  });

  it("refuses a tolerance over 10%, naming the field", () => {
    expect(() => scored("a", { clamp: 0.2 })).toThrow(/clamp/);
    expect(() => scored("a", "round")).toThrow();
  });
});

describe("the setting in the catalog forms", () => {
  it("an evaluation-criteria file: for every criterion, or one criterion's own", () => {
    const file = {
      name: "Outreach",
      version: "2",
      outOfRange: "clamp",
      criteria: [
        { id: "reach", name: "Reach", description: "Who is reached?", weight: 1 },
        {
          id: "cost",
          name: "Cost",
          description: "Is it affordable?",
          weight: 1,
          outOfRange: "error",
        },
      ],
    };
    const catalog = parseCatalog(JSON.stringify(file), { format: "json" });
    expect(catalog.criteria.map((c) => c.method)).toMatchObject([
      { kind: "score", outOfRange: "clamp" },
      { kind: "score", outOfRange: "error" },
    ]);
    const bad = { ...file, outOfRange: { clamp: 0.5 } };
    expect(() => parseCatalog(JSON.stringify(bad), { format: "json" })).toThrow(/outOfRange/);
  });

  it("the TOON criteria dialect's meta row: out_of_range for its score criteria", () => {
    const toon = `meta{version,program,out_of_range}:
  "3","Tidal Grants",clamp
criteria[2,]{id,type,weight,title,prompt}:
  based,check,0,Based here,"Is the company based in Hamburg?"
  impact,score,1,Impact,"How large is the impact on coastal towns?"
`;
    const catalog = parseCatalog(toon, { format: "toon" });
    expect(catalog.criteria.map((c) => c.method)).toEqual([
      { kind: "check" },
      { kind: "score", scale: FIVE, outOfRange: "clamp" },
    ]);
  });
});

describe("through evaluateContent", () => {
  const catalog = (outOfRange?: string) =>
    parseCatalog(
      JSON.stringify({
        name: "Outreach",
        version: "2",
        ...(outOfRange === undefined ? {} : { outOfRange }),
        criteria: [{ id: "reach", name: "Reach", description: "Who is reached?", weight: 1 }],
      }),
      { format: "json" },
    );
  // The judge answers 1.05 (the test double answers the injection guard's call: no injection).
  const judge = () => new ScriptedChatModel({ responder: () => answer(1.05) });

  it("by default, 1.05 leaves the criterion not evaluated, with the judge error", async () => {
    const result = await evaluateContent({
      content: "We reach 400 households.",
      catalog: catalog(),
      model: judge(),
    });
    expect(result.criteria[0]).toMatchObject({
      evaluated: false,
      score: null,
      judgeError: "score 1.05 is outside 0–1",
    });
    expect(result.passed).toBe(false);
  });

  it('with outOfRange: "clamp", 1.05 is read as 1 and the warning says so', async () => {
    const result = await evaluateContent({
      content: "We reach 400 households.",
      catalog: catalog("clamp"),
      model: judge(),
    });
    expect(result.criteria[0]).toMatchObject({ evaluated: true, score: 1, native: 1 });
    expect(result.warnings).toContain(
      "reach: score 1.05 is outside 0–1: read as 1 (the catalog clamps it)",
    );
  });
});
