import { describe, expect, it } from "vitest";
import { runFunctionCriterion } from "../../src/checks/functionCriterion.js";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { CriterionOutcomeSchema } from "../../src/scoring/result.js";
import { criterion, FIXTURES_DIR, QUIZ_LEVELS } from "./helpers.js";

const registry = new FunctionRegistry({ baseDir: FIXTURES_DIR });

describe("runFunctionCriterion", () => {
  it("maps a true built-in result to 1 / pass with the args as evidence", async () => {
    const outcome = await runFunctionCriterion(
      criterion({ kind: "function", name: "contains", args: "Hamburg" }),
      "Our office is in Hamburg.",
      registry,
    );
    expect(CriterionOutcomeSchema.parse(outcome)).toEqual(outcome);
    expect(outcome).toMatchObject({
      evaluated: true,
      score: 1,
      native: "pass",
      reasoning: "Function 'contains' evaluated to true.",
      evidence: ['args: "Hamburg"'],
    });
    expect(outcome.judgeError).toBeUndefined();
  });

  it("maps false to 0 / fail", async () => {
    const outcome = await runFunctionCriterion(
      criterion({ kind: "function", name: "contains", args: "Hamburg" }),
      "Our office is in Berlin.",
      registry,
    );
    expect(outcome).toMatchObject({ evaluated: true, score: 0, native: "fail" });
    expect(outcome.reasoning).toBe("Function 'contains' evaluated to false.");
  });

  it("uses a 0–1 number as the score", async () => {
    const outcome = await runFunctionCriterion(
      criterion({ kind: "function", name: "contains_all_of", args: ["Hamburg", "AI", "x", "y"] }),
      "AI in Hamburg",
      registry,
    );
    expect(outcome).toMatchObject({ evaluated: true, score: 0.5, native: 0.5 });
    expect(outcome.reasoning).toBe("Function 'contains_all_of' evaluated to 0.5.");
  });

  it("clamps numbers outside 0–1 and rejects NaN", async () => {
    const local = new FunctionRegistry()
      .register("t:high", () => 1.7)
      .register("t:low", () => -0.2)
      .register("t:nan", () => Number.NaN);
    const high = await runFunctionCriterion(
      criterion({ kind: "function", name: "t:high" }),
      "",
      local,
    );
    const low = await runFunctionCriterion(
      criterion({ kind: "function", name: "t:low" }),
      "",
      local,
    );
    const nan = await runFunctionCriterion(
      criterion({ kind: "function", name: "t:nan" }),
      "",
      local,
    );
    expect(high.score).toBe(1);
    expect(low.score).toBe(0);
    expect(nan).toMatchObject({ evaluated: false, score: null });
    expect(nan.judgeError).toMatch(/returned NaN/);
  });

  it("maps a level id from an imported function to that level's score", async () => {
    const method = {
      kind: "function" as const,
      name: "scoring:check_question_count",
      levels: QUIZ_LEVELS,
    };
    const many = await runFunctionCriterion(
      criterion(method),
      JSON.stringify({ questions: Array.from({ length: 12 }, (_, i) => `Q${i}`) }),
      registry,
    );
    expect(many).toMatchObject({
      evaluated: true,
      score: 1,
      native: "excellent",
      level: "excellent",
    });
    expect(many.reasoning).toBe(
      "Function 'scoring:check_question_count' evaluated to level 'excellent'.",
    );
    const some = await runFunctionCriterion(
      criterion(method),
      { questions: ["1", "2", "3", "4", "5"] },
      registry,
    );
    expect(some).toMatchObject({ score: 0.7, native: "pass", level: "pass" });
  });

  it("an unknown level id is not evaluated and names the valid ids", async () => {
    const outcome = await runFunctionCriterion(
      criterion({
        kind: "function",
        name: "scoring:check_question_count",
        levels: [
          { id: "low", label: "Low", score: 0 },
          { id: "high", label: "High", score: 1 },
        ],
      }),
      { questions: [] },
      registry,
    );
    expect(outcome).toMatchObject({ evaluated: false, score: null, native: null });
    expect(outcome.judgeError).toBe(
      "Function 'scoring:check_question_count' returned the unknown level id 'fail'; valid level ids: low, high",
    );
  });

  it("a level id without levels is not evaluated", async () => {
    const outcome = await runFunctionCriterion(
      criterion({ kind: "function", name: "scoring:check_question_count" }),
      { questions: [] },
      registry,
    );
    expect(outcome.evaluated).toBe(false);
    expect(outcome.judgeError).toMatch(/defines no levels/);
  });

  it("a boolean on a criterion with levels picks the highest or lowest level", async () => {
    const method = {
      kind: "function" as const,
      name: "myapp.scoring:has_title",
      levels: QUIZ_LEVELS,
    };
    const yes = await runFunctionCriterion(criterion(method), { title: "T" }, registry);
    const no = await runFunctionCriterion(criterion(method), { title: "" }, registry);
    expect(yes).toMatchObject({ score: 1, native: "excellent", level: "excellent" });
    expect(no).toMatchObject({ score: 0, native: "fail", level: "fail" });
  });

  it("passes args to an async imported function", async () => {
    const outcome = await runFunctionCriterion(
      criterion({
        kind: "function",
        name: "scoring:section_coverage",
        args: ["summary", "budget", "timeline", "team"],
      }),
      '{"summary": "...", "budget": "..."}',
      registry,
    );
    expect(outcome).toMatchObject({ evaluated: true, score: 0.5 });
    expect(outcome.evidence).toEqual(['args: ["summary","budget","timeline","team"]']);
  });

  it("a point-function error is reported as not evaluated, not as a zero", async () => {
    const outcome = await runFunctionCriterion(
      criterion({ kind: "function", name: "matches", args: "([" }),
      "text",
      registry,
    );
    expect(outcome).toMatchObject({ evaluated: false, score: null, native: null });
    expect(outcome.judgeError).toMatch(/^matches: expected a valid regular expression string/);
    expect(outcome.reasoning).toMatch(/^Function 'matches' could not evaluate: /);
  });

  it("a throwing function gives level 'error' with the message", async () => {
    const outcome = await runFunctionCriterion(
      criterion({ kind: "function", name: "scoring:always_throws" }),
      "{}",
      registry,
    );
    expect(outcome).toMatchObject({ evaluated: false, score: null, native: null, level: "error" });
    expect(outcome.judgeError).toBe(
      "Function 'scoring:always_throws' threw: scoring backend unavailable",
    );
    expect(outcome.reasoning).toContain("scoring backend unavailable");
  });

  it("an unresolvable function is not evaluated with the resolution error", async () => {
    const outcome = await runFunctionCriterion(
      criterion({ kind: "function", name: "nowhere:fn" }),
      "text",
      registry,
    );
    expect(outcome.evaluated).toBe(false);
    expect(outcome.judgeError).toMatch(/^Cannot resolve function 'nowhere:fn'/);
  });

  it("an answer of the wrong type is not evaluated", async () => {
    const local = new FunctionRegistry().register("t:obj", () => ({ score: 1 }));
    const outcome = await runFunctionCriterion(
      criterion({ kind: "function", name: "t:obj" }),
      "",
      local,
    );
    expect(outcome.evaluated).toBe(false);
    expect(outcome.judgeError).toMatch(/returned an object; expected a boolean/);
  });

  it("refuses a criterion that is not a function criterion", async () => {
    await expect(
      runFunctionCriterion(criterion({ kind: "check" }, "c9"), "text", registry),
    ).rejects.toMatchObject({ code: "CRITERION_METHOD_MISMATCH" });
  });
});
