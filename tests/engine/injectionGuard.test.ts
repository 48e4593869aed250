import { describe, expect, it } from "vitest";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { injectionGuardDefault } from "../../src/engine/options.js";
import { parseGuardResponse } from "../../src/judge/injectionGuard.js";
import { ScriptedChatModel } from "../doubles/index.js";
import {
  answerByTitle,
  BUDGET_CONTENT,
  budgetAnswersAll,
  budgetCatalog,
  judgeOf,
  systemPromptOf,
  userPromptOf,
} from "./helpers.js";

const CLEAN = JSON.stringify({ reasoning: "Ordinary budget text.", instruction_bearing: false });
const FLAGGED = JSON.stringify({
  reasoning: "It asks the evaluator to be generous.",
  instruction_bearing: true,
});

/** A judge that answers guard calls with `guard` and criterion calls by title. */
function judgeWith(guard: string | Error) {
  const byTitle = answerByTitle(budgetAnswersAll(1));
  return new ScriptedChatModel({
    guard: "script", // this test answers the injection guard's prompts itself
    responder: (messages, n) => {
      if (/security classifier/.test(systemPromptOf(messages))) {
        if (guard instanceof Error) throw guard;
        return guard;
      }
      return byTitle(messages, n);
    },
  });
}

describe("the guard's answer, read fail-closed", () => {
  it("reads a verdict with its reasoning", () => {
    expect(parseGuardResponse(FLAGGED)).toEqual({
      ok: true,
      instructionBearing: true,
      reasoning: "It asks the evaluator to be generous.",
    });
    expect(
      parseGuardResponse(`<think>{"reasoning": "x", "instruction_bearing": true}</think>${CLEAN}`),
    ).toMatchObject({
      ok: true,
      instructionBearing: false,
    });
  });

  it.each([
    ["no JSON", "The text looks fine to me."],
    ["verdict missing", '{"reasoning": "fine"}'],
    ["verdict unreadable", '{"reasoning": "fine", "instruction_bearing": "maybe"}'],
    ["reasoning missing", '{"instruction_bearing": false}'],
    ["answers that disagree", `${CLEAN}\n${FLAGGED}`],
    ["empty", ""],
  ])("%s is a failure, not a clean verdict", (_name, text) => {
    expect(parseGuardResponse(text).ok).toBe(false);
  });
});

describe("the guard call in evaluateContent", () => {
  it("is on by default, and EVALGATE_INJECTION_GUARD=off turns the default off", () => {
    expect(injectionGuardDefault({})).toBe(true);
    expect(injectionGuardDefault({ EVALGATE_INJECTION_GUARD: "off" })).toBe(false);
    expect(injectionGuardDefault({ EVALGATE_INJECTION_GUARD: "on" })).toBe(true);
    expect(injectionGuardDefault({ EVALGATE_INJECTION_GUARD: " 0 " })).toBe(false);
    // A value that is neither is refused, never read as on or off.
    expect(() => injectionGuardDefault({ EVALGATE_INJECTION_GUARD: "maybe" })).toThrow(
      'EVALGATE_INJECTION_GUARD must be on or off (1, true, yes, on / 0, false, no, off), not "maybe"',
    );
  });

  it("catches what the patterns miss: instruction-bearing content is held for review", async () => {
    const model = judgeWith(FLAGGED);
    const result = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog: await budgetCatalog(),
      model: judgeOf(model),
      injectionGuard: true,
    });
    expect(result.overallScore).toBe(1);
    expect(result.humanReviewRequired).toBe(true);
    expect(result.passed).toBe(false);
    expect(result.verdict).not.toBe("pass");
    expect(result.warnings.some((w) => w.includes("injection guard found text"))).toBe(true);
    const guardTraces = result.traces.filter((t) => t.purpose === "guard");
    expect(guardTraces).toHaveLength(1);
    // The content reaches the guard fenced as data.
    const guardCall = model.calls.find((c) =>
      /security classifier/.test(systemPromptOf(c.messages)),
    );
    expect(userPromptOf(guardCall?.messages ?? [])).toMatch(/<<<DATA id=\w+>>>/);
  });

  it("a clean verdict lets the result pass", async () => {
    const result = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog: await budgetCatalog(),
      model: judgeOf(judgeWith(CLEAN)),
      injectionGuard: true,
    });
    expect(result.humanReviewRequired).toBe(false);
    expect(result.passed).toBe(true);
  });

  it.each([
    ["an unreadable answer", "I am not sure."],
    ["a model error", new Error("connection refused")],
  ])("a guard that fails (%s) is a warning and forces review", async (_name, guard) => {
    const result = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog: await budgetCatalog(),
      model: judgeOf(judgeWith(guard)),
      injectionGuard: true,
    });
    expect(result.humanReviewRequired).toBe(true);
    expect(result.passed).toBe(false);
    expect(result.warnings.some((w) => w.includes("injection guard"))).toBe(true);
  });

  it("turned off, makes no guard call", async () => {
    const result = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog: await budgetCatalog(),
      model: judgeOf(judgeWith(FLAGGED)),
      injectionGuard: false, // the switch this test is about
    });
    expect(result.traces.some((t) => t.purpose === "guard")).toBe(false);
    expect(result.passed).toBe(true);
  });

  it("sends a long text in blocks, one call each", async () => {
    const model = judgeWith(CLEAN);
    const result = await evaluateContent({
      content: "Budget line. ".repeat(2_000),
      catalog: await budgetCatalog(),
      model: judgeOf(model),
      injectionGuard: true,
    });
    const guardCalls = model.calls.filter((c) =>
      /security classifier/.test(systemPromptOf(c.messages)),
    );
    expect(guardCalls).toHaveLength(2);
    expect(result.humanReviewRequired).toBe(false);
  });
});
