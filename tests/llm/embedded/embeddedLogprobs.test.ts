/**
 * Probability-weighted scores on the embedded runtime: the real node-llama-cpp runtime loads a
 * tiny GGUF written by the test helper, whose byte preferences make the digits 2, 3 and 4 nearly
 * as likely as `"` (so a score position carries a real distribution over a 1–5 scale). The
 * answer's log-probabilities are computed by one more evaluation of its tokens; with weighting
 * off, none is made. The arithmetic from logits to log-probabilities is checked against values
 * worked out by hand.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateContent } from "../../../src/engine/evaluateContent.js";
import { createChatModel } from "../../../src/llm/chatModel.js";
import {
  answerStart,
  answerTokensEvaluated,
  logprobsFromLogits,
} from "../../../src/llm/embedded/answerLogprobs.js";
import { invokeJudge } from "../../../src/llm/invoke.js";
import { writeTinyGguf } from "../../doubles/tinyGguf.js";
import { catalogOf } from "../../engine/helpers.js";

/** Loading a native runtime on a busy machine takes a while (a limit, never a measurement). */
const EMBEDDED_TIMEOUT = 240_000;
/** `"` stays the likeliest byte (strings close); 3, 4 and 2 follow closely. */
const PREFERENCES = { "3": 9.98, "4": 9.96, "2": 9.94 };
const SCALE = { min: 1, max: 5, integer: true };

let dir: string;
let modelPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-embedded-logprobs-"));
  modelPath = writeTinyGguf(join(dir, "digits.gguf"), { preferences: PREFERENCES });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function embeddedJudge() {
  return createChatModel(`llama-cpp:${modelPath}`, {
    env: {
      EVALGATE_LLAMA_SEQUENCES: "1",
      EVALGATE_LLAMA_THREADS: "1",
      EVALGATE_LLAMA_CONTEXT: "4096",
      EVALGATE_LLAMA_MAX_TOKENS: "120",
    },
    maxRetries: 0,
    timeoutMs: EMBEDDED_TIMEOUT,
  });
}

/** A village bakery's proposal on one 1–5 criterion. */
const CONTENT = "Backstube Ohrdruf: a shared wood-fired oven for three villages, booked online.";
const catalog = catalogOf({
  id: "bakery-fund",
  name: "Village bakery fund",
  version: "1",
  criteria: [
    {
      id: "sharing",
      title: "Sharing the oven",
      description: "How well does the booking plan share the oven between the villages?",
      weight: 1,
      method: { kind: "score", scale: SCALE },
    },
  ],
});

const answerFormat = {
  type: "object",
  properties: {
    reasoning: { type: "string" },
    score: { type: "integer", minimum: 1, maximum: 5 },
  },
  required: ["reasoning", "score"],
};

describe("log-probabilities from logits (worked by hand)", () => {
  it("p = exp(logit − max) / Σ exp(logit − max): logits 2, 1, 0 on a three-token vocabulary", () => {
    // weight = e^0 + e^−1 + e^−2 = 1 + 0.36788 + 0.13534 = 1.50321; ln 1.50321 = 0.40761
    const weight = 1 + Math.exp(-1) + Math.exp(-2);
    const logits = new Map([
      ["b", 1],
      ["a", 2],
      ["c", 0],
    ]);
    const position = logprobsFromLogits(logits, weight, "b", 2);
    // b: 1 − 2 − 0.40761 = −1.40761 (p = 0.24473); a: −0.40761 (p = 0.66524)
    expect(position?.own).toBeCloseTo(-1.40761, 4);
    expect(position?.top).toEqual([
      ["a", expect.closeTo(-0.40761, 4)],
      ["b", expect.closeTo(-1.40761, 4)],
    ]);
  });

  it("keeps a certain token at 0 and refuses weights that are not positive numbers", () => {
    expect(logprobsFromLogits(new Map([[7, 3.5]]), 1, 7, 5)).toEqual({ own: 0, top: [[7, 0]] });
    for (const weight of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(logprobsFromLogits(new Map([[7, 3.5]]), weight, 7, 5)).toBeUndefined();
    }
    // The answer's own token missing from what the runtime gave: no guess.
    expect(logprobsFromLogits(new Map([[7, 3.5]]), 1, 8, 5)).toBeUndefined();
  });
});

describe("where the answer is in the sequence's tokens", () => {
  const prompt = [11, 12, 13, 14];
  const answer = [21, 22, 23];
  it("finds it at the end, with its last token unevaluated, or before trimmed tokens", () => {
    expect(answerStart([...prompt, ...answer], answer)).toBe(4);
    expect(answerStart([...prompt, 21, 22], answer)).toBe(4);
    // Three newlines evaluated after the answer and trimmed from its text.
    expect(answerStart([...prompt, ...answer, 10, 10, 10], answer)).toBe(4);
    // A one-token answer is sampled, never evaluated: it follows the whole sequence.
    expect(answerStart(prompt, [21])).toBe(4);
  });

  it("takes the last copy when the prompt quotes the answer, and refuses a sequence without it", () => {
    expect(answerStart([...answer, ...prompt, ...answer], answer)).toBe(7);
    expect(answerStart([...prompt, 99, 98], answer)).toBeUndefined();
    expect(answerStart([...prompt, 21, 99], answer)).toBeUndefined();
    expect(answerStart([], answer)).toBeUndefined();
    expect(answerStart(prompt, [])).toBeUndefined();
    // Further back than the trailing allowance (64 tokens): not taken for the answer.
    expect(answerStart([...prompt, ...answer, ...Array(65).fill(10)], answer)).toBeUndefined();
  });
});

describe("the embedded model's token log-probabilities", () => {
  it(
    "cover every answer token, each position a distribution: p in (0, 1], Σ ≤ 1, the own token's matching",
    async () => {
      const before = answerTokensEvaluated();
      const answer = await invokeJudge(
        embeddedJudge(),
        [
          ["system", "You judge bakery plans."],
          ["human", "Score the plan."],
        ],
        { format: answerFormat, logprobs: 5 },
      );
      const tokens = answer.logprobs ?? [];
      expect(tokens.length).toBeGreaterThan(0);
      // The tokens spell the answer (a byte-level vocabulary: one character each).
      expect(tokens.map((t) => t.token).join("")).toBe(answer.text);
      expect(answerTokensEvaluated() - before).toBe(tokens.length);
      for (const token of tokens) {
        const top = token.top_logprobs ?? [];
        expect(top).toHaveLength(5);
        const probabilities = top.map((alt) => Math.exp(alt.logprob));
        for (const p of probabilities) {
          expect(p).toBeGreaterThan(0);
          expect(p).toBeLessThanOrEqual(1);
        }
        expect(probabilities.reduce((sum, p) => sum + p, 0)).toBeLessThanOrEqual(1 + 1e-9);
        // Most likely first.
        expect([...probabilities].sort((a, b) => b - a)).toEqual(probabilities);
        const same = top.find((alt) => alt.token === token.token);
        if (same !== undefined) expect(token.logprob).toBeCloseTo(same.logprob, 9);
        else expect(Math.exp(token.logprob)).toBeLessThanOrEqual(probabilities[4] ?? 0);
      }
      expect(answer.parameters.topLogprobs).toBe(5);
    },
    EMBEDDED_TIMEOUT,
  );

  it(
    "weight the score: the result's value is the mean over the scale values of the recorded distribution",
    async () => {
      const before = answerTokensEvaluated();
      const result = await evaluateContent({
        content: CONTENT,
        catalog,
        model: embeddedJudge(),
        weightedScores: true,
      });
      expect(answerTokensEvaluated()).toBeGreaterThan(before);
      const sharing = result.criteria.find((c) => c.id === "sharing");
      expect(sharing?.evaluated).toBe(true);
      expect(sharing?.scoreMethod).toBe("probability-weighted");
      const weighting = result.traces.find((t) => t.purpose === "criterion")?.scoreWeighting;
      expect(weighting?.scoreMethod).toBe("probability-weighted");
      if (weighting?.scoreMethod !== "probability-weighted") return;
      const entries = Object.entries(weighting.distribution);
      // At least the three preferred digits, all on the scale.
      expect(entries.length).toBeGreaterThanOrEqual(3);
      for (const [value, p] of entries) {
        expect(Number(value)).toBeGreaterThanOrEqual(SCALE.min);
        expect(Number(value)).toBeLessThanOrEqual(SCALE.max);
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
      }
      // Renormalised over the scale's values, from at least half of the probability.
      expect(entries.reduce((sum, [, p]) => sum + p, 0)).toBeCloseTo(1, 9);
      expect(weighting.mass).toBeGreaterThanOrEqual(0.5);
      expect(weighting.mass).toBeLessThanOrEqual(1);
      // The arithmetic, by hand from the recorded distribution: Σ value · p, then (v − 1) / 4.
      const mean = entries.reduce((sum, [value, p]) => sum + Number(value) * p, 0);
      expect(sharing?.native).toBeCloseTo(mean, 2);
      expect(sharing?.score).toBeCloseTo((mean - 1) / 4, 2);
      // 3 is preferred over 4 and 2, so the mean lies between 2 and 4 and differs from a plain 3.
      expect(mean).toBeGreaterThan(2);
      expect(mean).toBeLessThan(4);
    },
    EMBEDDED_TIMEOUT,
  );

  it(
    "with weighting off, evaluates nothing more: no answer token evaluated again, no score method",
    async () => {
      const before = answerTokensEvaluated();
      const result = await evaluateContent({ content: CONTENT, catalog, model: embeddedJudge() });
      expect(answerTokensEvaluated()).toBe(before);
      const sharing = result.criteria.find((c) => c.id === "sharing");
      expect(sharing?.evaluated).toBe(true);
      expect(sharing?.scoreMethod).toBeUndefined();
      expect(Number.isInteger(sharing?.native)).toBe(true);
      expect(result.traces.every((t) => t.scoreWeighting === undefined)).toBe(true);
    },
    EMBEDDED_TIMEOUT,
  );
});
