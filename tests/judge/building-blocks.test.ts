import { describe, expect, it } from "vitest";
import { toOutcome, unusableAnswer } from "../../src/judge/answer.js";
import { PromptTemplateError } from "../../src/judge/errors.js";
import { fenceData, neutraliseData } from "../../src/judge/fence.js";
import { scanJsonObjects } from "../../src/judge/jsonObjectScan.js";
import { parseJudgeResponse } from "../../src/judge/parse.js";
import { parseBatchResponse } from "../../src/judge/parseBatch.js";
import { fillTemplate, placeholdersOf } from "../../src/judge/template.js";
import { CriterionOutcomeSchema } from "../../src/scoring/result.js";
import { clarityLevels, scoreFivePoint, scoreUnit } from "./criteria.js";

describe("scanJsonObjects", () => {
  it("reads JSON and the usual judge liberties", () => {
    const text = "{'a': 'x', b: [1, 2,], \"c\": True, /* note */ \"d\": None,} trailing";
    const scan = scanJsonObjects(text);
    expect(scan.objects).toEqual([
      { value: { a: "x", b: [1, 2], c: true, d: null }, start: 0, end: text.indexOf(" trailing") },
    ]);
  });

  it("tells truncation apart from a syntax error, and never reads a guess", () => {
    expect(scanJsonObjects('{"a": "unfinished')).toMatchObject({ objects: [], truncated: true });
    expect(scanJsonObjects('{"a": 1, "b": [2')).toMatchObject({ objects: [], truncated: true });
    for (const guess of ['{"a": 1 "b": 2}', '{"a": undefined}', "{'a': 'it's'}", '{"a" 1}']) {
      const scan = scanJsonObjects(guess);
      expect(scan, guess).toMatchObject({ objects: [], truncated: false });
      expect(scan.firstError, guess).toContain("invalid JSON");
    }
  });

  it("keeps a __proto__ key as data, and drops it", () => {
    const [found] = scanJsonObjects('{"__proto__": {"polluted": true}}').objects;
    expect(found?.value).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("finds each object once, skipping braces inside strings", () => {
    const scan = scanJsonObjects('a {"x": "{not}"} b {"y": 2} c');
    expect(scan.objects.map((o) => o.value)).toEqual([{ x: "{not}" }, { y: 2 }]);
    expect(scan.truncated).toBe(false);
  });

  it("does not look inside a malformed object for another one", () => {
    const scan = scanJsonObjects(`{"reasoning": "quoted {'score': 5}" score: high}`);
    expect(scan.objects).toEqual([]);
    expect(scan.firstError).toContain("invalid JSON");
  });
});

describe("neutraliseData and fenceData", () => {
  it("neutralises delimiters, code fences, prompt tags and chat tokens", () => {
    const text = neutraliseData(
      "<<<END CONTENT id=1>>> ``` ~~~ </content> <system> <|im_start|> [plain] a < b > c",
    );
    expect(text).not.toMatch(/<<|>>|```|~~~|<\/content>|<system>|<\|/);
    expect(text).toContain("[plain] a < b > c");
  });

  it("derives the fence id from the data", () => {
    expect(fenceData("CONTENT", "a")).toBe(fenceData("CONTENT", "a"));
    expect(fenceData("CONTENT", "a")).not.toBe(fenceData("CONTENT", "b"));
  });
});

describe("fillTemplate", () => {
  it("drops lines whose only placeholder is empty and keeps blocks on their own lines", () => {
    const out = fillTemplate(
      "A\n\n{{empty}}\n\nB: {{block}} end",
      { empty: "", block: "x\ny" },
      "t",
    );
    expect(out).toBe("A\n\nB: \nx\ny\n end");
  });

  it("names the template, line and column of an unknown placeholder", () => {
    expect(() => fillTemplate("ok\n  {{ nope }}", { a: "1" }, "my template", "c9")).toThrow(
      "criterion 'c9' › my template › line 2, column 3: unknown placeholder {{nope}}; known placeholders: {{a}}",
    );
    expect(() => fillTemplate("{{x}}", {}, "t")).toThrow(PromptTemplateError);
  });

  it("gives each placeholder its line and column, several on a line and after blank lines", () => {
    const template = "{{a}} and {{ b }}\n\n\n  x {{c}}\n{{d}}";
    expect(placeholdersOf(template)).toEqual([
      { name: "a", line: 1, column: 1 },
      { name: "b", line: 1, column: 11 },
      { name: "c", line: 4, column: 5 },
      { name: "d", line: 5, column: 1 },
    ]);
  });
});

describe("toOutcome", () => {
  it("turns a usable answer into an evaluated outcome", () => {
    const outcome = toOutcome(
      parseJudgeResponse('{"reasoning": "clear", "level_id": "pass"}', clarityLevels),
    );
    expect(CriterionOutcomeSchema.parse(outcome)).toEqual({
      evaluated: true,
      score: 0.7,
      native: "pass",
      level: "pass",
      reasoning: "clear",
      hits: [],
      misses: [],
      evidence: [],
    });
  });

  it("turns an unusable answer into a not-evaluated outcome with the judge error", () => {
    const outcome = toOutcome(
      parseJudgeResponse('{"reasoning": "ok", "score": "?"}', scoreFivePoint),
    );
    expect(CriterionOutcomeSchema.parse(outcome)).toMatchObject({
      evaluated: false,
      score: null,
      native: null,
      reasoning: "ok",
      judgeError: 'score must be a number, got "?"',
    });
    expect(toOutcome(unusableAnswer("answer truncated")).judgeError).toBe("answer truncated");
  });
});

describe("one rule for single and batch answers", () => {
  const criteria = [scoreFivePoint, scoreUnit];
  const table = (rows: string[]) =>
    `results[${rows.length}]{id,score,reasoning}:\n${rows.map((r) => `  ${r}`).join("\n")}`;

  it("an off-scale score is a judge error in both modes", () => {
    const single = parseJudgeResponse('{"reasoning": "x", "score": 10}', scoreFivePoint);
    expect(single.judgeError).toContain("score 10 is outside 1–5");
    const batch = parseBatchResponse(
      table([`${scoreFivePoint.id},10,Strong.`, `${scoreUnit.id},85,Strong.`]),
      criteria,
    );
    expect(batch.missing).toEqual([scoreFivePoint.id, scoreUnit.id]);
    expect(batch.notes.join("\n")).toContain("score 10 is outside 1–5");
    expect(batch.notes.join("\n")).toContain("score 85 is outside 0–1");
  });

  it("a batch row without reasoning is not used", () => {
    const batch = parseBatchResponse(
      table([`${scoreFivePoint.id},4,""`, `${scoreUnit.id},0.5,Fine.`]),
      criteria,
    );
    expect(batch.missing).toEqual([scoreFivePoint.id]);
    expect(batch.answers.get(scoreUnit.id)?.native).toBe(0.5);
  });

  it("two batch rows that disagree leave the criterion unanswered", () => {
    const batch = parseBatchResponse(
      table([
        `${scoreFivePoint.id},2,Weak.`,
        `${scoreFivePoint.id},5,Strong.`,
        `${scoreUnit.id},0.5,Fine.`,
      ]),
      criteria,
    );
    expect(batch.missing).toEqual([scoreFivePoint.id]);
    expect(batch.notes.join("\n")).toContain("disagree");
  });
});

describe("the answer reader drops prototype keys", () => {
  it("never lists __proto__, constructor or prototype as keys", () => {
    const [found] = scanJsonObjects(
      '{"__proto__": {"score": 1}, "constructor": 1, "prototype": 2, "a": 3}',
    ).objects;
    expect(found && Object.keys(found.value)).toEqual(["a"]);
  });
});
