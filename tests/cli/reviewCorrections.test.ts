/**
 * Score corrections in the terminal review, without a model: `--correct` / `--note` turned into
 * the decision's corrections (and refused where they do not fit), and the interactive `mark` step
 * checked against the evaluation on screen — an unknown criterion or a score off its 1–5 scale is
 * explained and asked again.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { decisionFromOptions } from "../../src/cli/actions/review.js";
import { createLineReader } from "../../src/cli/review/input.js";
import { askDecision } from "../../src/cli/review/interactive.js";
import { isEvalgateError } from "../../src/errors.js";
import type { PendingReview } from "../../src/orchestrator/pendingReview.js";
import type { CriterionResult, EvaluationResult } from "../../src/scoring/result.js";

function criterion(overrides: Partial<CriterionResult>): CriterionResult {
  return {
    id: "c2",
    title: "Innovation",
    method: "score",
    weight: 0.4,
    critical: false,
    knockout: false,
    required: true,
    evaluated: true,
    score: 0.75,
    native: 4,
    met: true,
    threshold: 0.5,
    reasoning: "A new sensor.",
    hits: [],
    misses: [],
    evidence: [],
    scale: { min: 1, max: 5, integer: true },
    ...overrides,
  };
}

const evaluation: EvaluationResult = {
  passed: true,
  timestamp: "2026-01-05T10:00:00.000Z",
  evaluator: "evalgate",
  overallScore: 0.75,
  scores: { c1: 1, c2: 0.75 },
  strengths: [],
  weaknesses: [],
  suggestions: [],
  feedback: "",
  verdict: "borderline",
  criteria: [
    criterion({
      id: "c1",
      title: "Hamburg Base",
      method: "check",
      score: 1,
      native: "pass",
      scale: undefined,
    }),
    criterion({}),
  ],
  notEvaluated: [],
  catalog: { id: "ifb_profi", version: "1.0" },
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  warnings: [],
  traces: [],
};

const review: PendingReview = {
  threadId: "t-1",
  interruptId: "i-1",
  type: "evaluation_review",
  contentType: "funding",
  contentId: "funding",
  title: "Funding Evaluation Review",
  description: "Review the evaluation.",
  evaluation,
  actions: ["approve", "revise", "edit"],
};

function prompt(text: string) {
  const input = new PassThrough();
  input.end(text);
  let out = "";
  const io = {
    lines: createLineReader(input),
    out: { write: (chunk: string) => (out += chunk) },
    cwd: ".",
    env: {},
    terminal: false,
  };
  return { io, out: () => out };
}

describe("--correct and --note", () => {
  it("give the decision its corrections: a number is a score, anything else a level", async () => {
    const decision = await decisionFromOptions(
      "approve",
      { correct: ["c2=2", "c1=fail"], note: ["c2=an incremental sensor"] },
      ".",
    );
    expect(decision).toEqual({
      action: "approve",
      corrections: [
        { criterionId: "c2", score: 2, note: "an incremental sensor" },
        { criterionId: "c1", level: "fail" },
      ],
    });
  });

  it("are refused without a value, with a retry, or as a note without its correction", async () => {
    const refusals: Array<[string, Parameters<typeof decisionFromOptions>[1], string]> = [
      [
        "approve",
        { correct: ["c2"] },
        '--correct takes <criterion>=<value>, e.g. --correct c2=2 (got "c2")',
      ],
      [
        "retry",
        { correct: ["c2=2"] },
        "--correct goes with approve, revise or edit: a retry judges again",
      ],
      ["approve", { note: ["c2=why"] }, "--note c2=… goes with a --correct c2=<value>"],
    ];
    for (const [action, options, message] of refusals) {
      const error = await decisionFromOptions(action, options, ".").catch((e: unknown) => e);
      expect(isEvalgateError(error), message).toBe(true);
      expect(error instanceof Error ? error.message : "").toBe(message);
    }
  });
});

describe("the interactive mark step", () => {
  it("is offered with an evaluation, explains a wrong mark and sends the right one with the decision", async () => {
    const { io, out } = prompt(
      "m\nc9 2\nc2 6\nc2 2 too incremental\nm\nc1 fail\nr\nName the partners.\n",
    );
    const outcome = await askDecision(review, "text", undefined, { ...io, reviewer: "ana" });
    expect(outcome).toEqual({
      kind: "decision",
      decision: {
        action: "revise",
        feedback: "Name the partners.",
        reviewer: "ana",
        corrections: [
          { criterionId: "c2", score: 2, note: "too incremental" },
          { criterionId: "c1", level: "fail" },
        ],
      },
    });
    const text = out();
    expect(text).toContain("Decide: [a]pprove, [r]evise, [e]dit, [m]ark a score wrong, [q]uit > ");
    expect(text).toContain("  c2 (1–5): judge said 4\n");
    expect(text).toContain("  c1 (pass/fail): judge said pass\n");
    expect(text).toContain(
      "criterion 'c9': no such criterion in this evaluation (it has 'c1', 'c2')\n",
    );
    expect(text).toContain("criterion 'c2' › score: 6 is outside the criterion's scale 1–5\n");
    expect(text).toContain("Marked c2: 2 (sent with your decision).\n");
  });

  it("takes <criterion>=<value> as --correct does, and explains a bare criterion once", async () => {
    const { io, out } = prompt("m\nc2\nc2=2 too incremental\na\n");
    const outcome = await askDecision(review, "text", undefined, io);
    expect(outcome).toEqual({
      kind: "decision",
      decision: {
        action: "approve",
        corrections: [{ criterionId: "c2", score: 2, note: "too incremental" }],
      },
    });
    const text = out();
    expect(text).toContain("answer <criterion> <right value> [note], e.g. c1 fail too vague\n");
    // The criteria are listed with each question, not again in the explanation.
    expect(text.split("  c2 (1–5): judge said 4\n")).toHaveLength(3);
  });
});
