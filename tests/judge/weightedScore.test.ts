/** Probability-weighted scores from the token log-probabilities of a JSON answer. */
import { describe, expect, it } from "vitest";
import { probabilityWeightedScore } from "../../src/judge/weightedScore.js";
import type { TokenLogprob } from "../../src/llm/tokenLogprobs.js";

const ONE_TO_FIVE = { min: 1, max: 5, integer: true };

/** The tokens of `{"reasoning": "ok", "score": 4}` with `alternatives` at the score's position. */
function answerTokens(alternatives: Array<[string, number]>, scoreToken = " 4"): TokenLogprob[] {
  const plain = (token: string): TokenLogprob => ({ token, logprob: -0.01, top_logprobs: [] });
  return [
    plain('{"'),
    plain("reason"),
    plain('ing":'),
    plain(' "ok'),
    plain('",'),
    plain(' "'),
    plain("score"),
    plain('":'),
    {
      token: scoreToken,
      logprob: Math.log(alternatives[0]?.[1] ?? 1),
      top_logprobs: alternatives.map(([token, p]) => ({ token, logprob: Math.log(p) })),
    },
    plain("}"),
  ];
}

describe("probabilityWeightedScore", () => {
  it("weights the scale's values by their probabilities: P(4)=0.6, P(5)=0.3, P(3)=0.1 → 4.2", () => {
    const weighted = probabilityWeightedScore(
      answerTokens([
        [" 4", 0.6],
        [" 5", 0.3],
        [" 3", 0.1],
      ]),
      ONE_TO_FIVE,
    );
    expect(weighted.scoreMethod).toBe("probability-weighted");
    if (weighted.scoreMethod !== "probability-weighted") return;
    // 4·0.6 + 5·0.3 + 3·0.1 = 2.4 + 1.5 + 0.3 = 4.2
    expect(weighted.native).toBeCloseTo(4.2, 10);
    expect(weighted.mass).toBeCloseTo(1, 10);
    expect(weighted.distribution["3"]).toBeCloseTo(0.1, 10);
    expect(weighted.distribution["4"]).toBeCloseTo(0.6, 10);
    expect(weighted.distribution["5"]).toBeCloseTo(0.3, 10);
  });

  it("counts only the scale's values and renormalises over them; one value's spellings are summed", () => {
    // P(" 4")=0.4, P("4")=0.2, P(" 2")=0.2, P(" 9")=0.1 (not on 1–5), P(" x")=0.1.
    const weighted = probabilityWeightedScore(
      answerTokens([
        [" 4", 0.4],
        ["4", 0.2],
        [" 2", 0.2],
        [" 9", 0.1],
        [" x", 0.1],
      ]),
      ONE_TO_FIVE,
    );
    if (weighted.scoreMethod !== "probability-weighted") throw new Error(JSON.stringify(weighted));
    // Mass 0.8 on the scale: 4 with 0.6/0.8 = 0.75, 2 with 0.2/0.8 = 0.25 → 3.5.
    expect(weighted.mass).toBeCloseTo(0.8, 10);
    expect(weighted.native).toBeCloseTo(3.5, 10);
    expect(Object.keys(weighted.distribution)).toEqual(["2", "4"]);
  });

  it("keeps the plain score, saying why, when the scale's values carry under half the probability", () => {
    const weighted = probabilityWeightedScore(
      answerTokens([
        [" 4", 0.3],
        [" four", 0.4],
        [" 7", 0.3],
      ]),
      ONE_TO_FIVE,
    );
    expect(weighted).toEqual({
      scoreMethod: "plain",
      reason: "the scale's values carry 0.30 of the probability, under 0.5",
    });
  });

  it("keeps the plain score when there are no log-probabilities, no alternatives, or no single score token", () => {
    expect(probabilityWeightedScore(undefined, ONE_TO_FIVE)).toEqual({
      scoreMethod: "plain",
      reason: "the model server gave no token log-probabilities",
    });
    const bare = answerTokens([[" 4", 1]]).map((each) => ({ ...each, top_logprobs: [] }));
    expect(probabilityWeightedScore(bare, ONE_TO_FIVE)).toMatchObject({
      scoreMethod: "plain",
      reason: "no alternatives at the score's position",
    });
    // "4" and "5" as two tokens ("45" is no 1–5 value and not one token).
    const split = answerTokens([[" 4", 1]]);
    split.splice(9, 0, { token: "5", logprob: -0.1, top_logprobs: [] });
    expect(probabilityWeightedScore(split, ONE_TO_FIVE)).toMatchObject({
      scoreMethod: "plain",
      reason: "the score's value is not one token of its own",
    });
    const noScore: TokenLogprob[] = [{ token: '{"result": "pass"}', logprob: -0.1 }];
    expect(probabilityWeightedScore(noScore, ONE_TO_FIVE)).toMatchObject({ scoreMethod: "plain" });
    expect(
      probabilityWeightedScore(answerTokens([[" 4", 1]]), { min: 0, max: 1, integer: false }),
    ).toMatchObject({
      scoreMethod: "plain",
      reason: "only an integer scale's values are single tokens",
    });
  });

  it('takes the score key\'s value, not a "score" quoted inside the reasoning', () => {
    // A reasoning that quotes `"score": 5` comes before the key: JSON escapes its quotes (\"),
    // so the pattern only matches the real key.
    const tokens: TokenLogprob[] = [
      { token: '{"reasoning": "it says \\"score\\": 5", "score":', logprob: -0.1 },
      {
        token: " 2",
        logprob: Math.log(0.9),
        top_logprobs: [
          { token: " 2", logprob: Math.log(0.9) },
          { token: " 3", logprob: Math.log(0.1) },
        ],
      },
      { token: "}", logprob: -0.1 },
    ];
    const weighted = probabilityWeightedScore(tokens, ONE_TO_FIVE);
    if (weighted.scoreMethod !== "probability-weighted") throw new Error(JSON.stringify(weighted));
    expect(weighted.native).toBeCloseTo(2.1, 10);
  });
});
