import { describe, expect, it } from "vitest";
import { runSchemaCriterion } from "../../src/checks/schemaCriterion.js";
import { decodeAnswerProblem } from "../../src/judge/parse.js";
import { CriterionOutcomeSchema } from "../../src/scoring/result.js";
import { criterion, FIXTURES_DIR, QUIZ_LEVELS } from "./helpers.js";

const QUIZ_SCHEMA = {
  type: "object",
  required: ["questions"],
  properties: {
    questions: { type: "array", minItems: 1, items: { type: "string" } },
  },
};

describe("runSchemaCriterion", () => {
  it("valid content with an inline schema scores 1 / pass", async () => {
    const outcome = await runSchemaCriterion(
      criterion({ kind: "schema", schema: QUIZ_SCHEMA }),
      '{"questions": ["What is photosynthesis?"]}',
    );
    expect(CriterionOutcomeSchema.parse(outcome)).toEqual(outcome);
    expect(outcome).toMatchObject({ evaluated: true, score: 1, native: "pass", evidence: [] });
  });

  it("invalid content scores 0 and keeps every validation error as evidence", async () => {
    const outcome = await runSchemaCriterion(criterion({ kind: "schema", schema: QUIZ_SCHEMA }), {
      questions: [],
    });
    expect(outcome).toMatchObject({ evaluated: true, score: 0, native: "fail" });
    expect(outcome.evidence).toEqual(["/questions: must NOT have fewer than 1 items"]);

    const several = await runSchemaCriterion(
      criterion({ kind: "schema", schema: QUIZ_SCHEMA }),
      '{"questions": [1, "ok", false]}',
    );
    expect(several.evidence).toEqual([
      "/questions/0: must be string",
      "/questions/2: must be string",
    ]);
    expect(several.reasoning).toMatch(/2 errors/);

    const missing = await runSchemaCriterion(
      criterion({ kind: "schema", schema: QUIZ_SCHEMA }),
      "{}",
    );
    expect(missing.evidence).toEqual(["/: must have required property 'questions'"]);
  });

  it("uses the highest and lowest levels when the criterion has levels", async () => {
    const method = { kind: "schema" as const, schema: QUIZ_SCHEMA, levels: QUIZ_LEVELS };
    const valid = await runSchemaCriterion(criterion(method), { questions: ["Q1"] });
    const invalid = await runSchemaCriterion(criterion(method), { questions: "Q1" });
    expect(valid).toMatchObject({ score: 1, native: "excellent", level: "excellent" });
    expect(invalid).toMatchObject({ score: 0, native: "fail", level: "fail" });
  });

  it("loads a schemaRef file relative to baseDir", async () => {
    const method = { kind: "schema" as const, schemaRef: "quiz.schema.json" };
    const valid = await runSchemaCriterion(criterion(method), '{"questions": ["Q"]}', {
      baseDir: FIXTURES_DIR,
    });
    const invalid = await runSchemaCriterion(criterion(method), '{"questions": "Q"}', {
      baseDir: FIXTURES_DIR,
    });
    expect(valid).toMatchObject({ evaluated: true, score: 1 });
    expect(invalid).toMatchObject({ evaluated: true, score: 0 });
    expect(invalid.evidence).toEqual(["/questions: must be array"]);
  });

  it("text that is not JSON is evaluated as invalid, with the parse error as evidence", async () => {
    const outcome = await runSchemaCriterion(
      criterion({ kind: "schema", schema: QUIZ_SCHEMA }),
      '{"questions": ["Q1",]}',
    );
    expect(outcome).toMatchObject({ evaluated: true, score: 0, native: "fail" });
    expect(outcome.evidence).toHaveLength(1);
    expect(outcome.evidence[0]).toMatch(/^content is not valid JSON: /);
  });

  it("reports other keywords' details", async () => {
    const schema = {
      type: "object",
      additionalProperties: false,
      properties: { status: { enum: ["draft", "final"] } },
    };
    const outcome = await runSchemaCriterion(criterion({ kind: "schema", schema }), {
      status: "wip",
      extra: 1,
    });
    expect(outcome.evidence).toEqual([
      "/: must NOT have additional properties 'extra'",
      '/status: must be equal to one of the allowed values: ["draft","final"]',
    ]);
  });

  it("supports draft 2020-12 schemas", async () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "array",
      prefixItems: [{ type: "string" }],
    };
    const ok = await runSchemaCriterion(criterion({ kind: "schema", schema }), '["a", 1]');
    const bad = await runSchemaCriterion(criterion({ kind: "schema", schema }), "[1]");
    expect(ok.score).toBe(1);
    expect(bad.evidence).toEqual(["/0: must be string"]);
  });

  it("a broken schema is not evaluated", async () => {
    const badType = await runSchemaCriterion(
      criterion({ kind: "schema", schema: { type: "strng" } }),
      "{}",
    );
    expect(badType).toMatchObject({ evaluated: false, score: null, native: null });
    expect(badType.judgeError).toMatch(/^invalid JSON Schema for criterion 'c1': /);

    const typo = await runSchemaCriterion(
      criterion({ kind: "schema", schema: { type: "array", minItem: 1 } }),
      "[]",
    );
    expect(typo.evaluated).toBe(false);
    expect(typo.judgeError).toMatch(/unknown keyword: "minItem"/);
  });

  it("runs a schema's patterns on RE2: one it cannot run in linear time is not evaluated", async () => {
    // (The child-process test in tests/cli/untrustedFiles.test.ts shows `^(a+)+$` not hanging.)
    const backreference = await runSchemaCriterion(
      criterion({ kind: "schema", schema: { type: "string", pattern: "(\\w+) \\1" } }),
      '"word word"',
    );
    expect(backreference).toMatchObject({ evaluated: false, score: null });
    expect(backreference.judgeError).toContain(
      'pattern "(\\\\w+) \\\\1": backreference "\\\\1" is not supported',
    );

    const keys = { type: "object", patternProperties: { "^\\d+$": { type: "number" } } };
    const valid = await runSchemaCriterion(
      criterion({ kind: "schema", schema: keys }),
      '{"12": 3}',
    );
    const invalid = await runSchemaCriterion(
      criterion({ kind: "schema", schema: keys }),
      '{"12": "x"}',
    );
    expect([valid.score, invalid.score]).toEqual([1, 0]);

    // A levels criterion's decode_output_schema is compiled the same way.
    const answerSchema = { type: "object", properties: { level_id: { pattern: "(a)\\1" } } };
    expect(decodeAnswerProblem({ level_id: "aa" }, answerSchema)).toContain(
      'backreference "\\\\1" is not supported',
    );
  });

  it("a schemaRef that is missing or not JSON is not evaluated", async () => {
    const missing = await runSchemaCriterion(
      criterion({ kind: "schema", schemaRef: "absent.schema.json" }),
      "{}",
      { baseDir: FIXTURES_DIR },
    );
    expect(missing.evaluated).toBe(false);
    expect(missing.judgeError).toMatch(/^Cannot load JSON Schema 'absent.schema.json' \(.*absent/);

    const truncated = await runSchemaCriterion(
      criterion({ kind: "schema", schemaRef: "truncated.schema.json" }),
      "{}",
      { baseDir: FIXTURES_DIR },
    );
    expect(truncated.evaluated).toBe(false);
    expect(truncated.judgeError).toMatch(/: line 1, column \d+: invalid JSON: expected /);
  });

  it("refuses a criterion that is not a schema criterion", async () => {
    await expect(
      runSchemaCriterion(criterion({ kind: "function", name: "contains", args: "x" }), "{}"),
    ).rejects.toMatchObject({ code: "CRITERION_METHOD_MISMATCH" });
  });
});
