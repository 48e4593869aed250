/**
 * Probability-weighted scores (G-Eval): the mean of the scale values weighted by their
 * probabilities at the score's token, from the server's top log-probabilities. Only an integer
 * scale is weighted (each value one token); below MIN_SCALE_MASS the plain score stands.
 */

import type { Scale } from "../criteria/model.js";
import type { TokenLogprob } from "../llm/tokenLogprobs.js";
import type { CriterionOutcome, ScoreWeighting } from "../scoring/result.js";
import { clampToScale, roundScore, toUnit } from "../scoring/scale.js";

/** Below this probability mass on the scale's values, the weighted score is not used. */
const MIN_SCALE_MASS = 0.5;

export type ScoreScale = Pick<Scale, "min" | "max" | "integer">;

const SCORE_VALUE = /"score"\s*:\s*(-?\d+(?:\.\d+)?)/;

function scoreToken(tokens: readonly TokenLogprob[]): TokenLogprob | string {
  const text = tokens.map((each) => each.token).join("");
  const match = SCORE_VALUE.exec(text);
  if (match === null || match[1] === undefined) return "the answer's tokens hold no score value";
  const start = match.index + match[0].length - match[1].length;
  const end = start + match[1].length;
  let offset = 0;
  for (const each of tokens) {
    const from = offset;
    offset += each.token.length;
    if (offset <= start) continue;
    const value = each.token.trim();
    const tokenStart = from + each.token.indexOf(value);
    if (tokenStart === start && tokenStart + value.length === end) return each;
    return "the score's value is not one token of its own";
  }
  return "the answer's tokens hold no score value";
}

function scaleProbabilities(token: TokenLogprob, scale: ScoreScale): Map<number, number> {
  const alternatives = [...(token.top_logprobs ?? [])];
  if (!alternatives.some((each) => each.token === token.token)) alternatives.push(token);
  const probabilities = new Map<number, number>();
  for (const each of alternatives) {
    const text = each.token.trim();
    const value = Number(text);
    const onScale = /^-?\d+$/.test(text) && value >= scale.min && value <= scale.max;
    if (!onScale || !Number.isFinite(each.logprob)) continue;
    probabilities.set(value, (probabilities.get(value) ?? 0) + Math.exp(Math.min(0, each.logprob)));
  }
  return probabilities;
}

export function probabilityWeightedScore(
  tokens: readonly TokenLogprob[] | undefined,
  scale: ScoreScale,
): ScoreWeighting {
  if (tokens === undefined || tokens.length === 0) {
    return { scoreMethod: "plain", reason: "the model server gave no token log-probabilities" };
  }
  if (!scale.integer) {
    return { scoreMethod: "plain", reason: "only an integer scale's values are single tokens" };
  }
  const token = scoreToken(tokens);
  if (typeof token === "string") return { scoreMethod: "plain", reason: token };
  if (token.top_logprobs === undefined || token.top_logprobs.length === 0) {
    return { scoreMethod: "plain", reason: "no alternatives at the score's position" };
  }
  const probabilities = scaleProbabilities(token, scale);
  const mass = [...probabilities.values()].reduce((sum, p) => sum + p, 0);
  if (mass < MIN_SCALE_MASS) {
    return {
      scoreMethod: "plain",
      reason: `the scale's values carry ${mass.toFixed(2)} of the probability, under ${MIN_SCALE_MASS}`,
    };
  }
  const distribution: Record<string, number> = {};
  let native = 0;
  for (const [value, p] of [...probabilities].sort(([a], [b]) => a - b)) {
    distribution[String(value)] = p / mass;
    native += (value * p) / mass;
  }
  const sampled = Number(token.token.trim());
  return { scoreMethod: "probability-weighted", native, distribution, mass, sampled };
}

/** Used only when the token it read holds the score the answer was read with. */
export function weightedOutcome(
  outcome: CriterionOutcome,
  weighting: ScoreWeighting,
  scale: Scale,
): CriterionOutcome {
  if (!outcome.evaluated) return outcome;
  const plain = (reason: string): CriterionOutcome => ({
    ...outcome,
    scoreMethod: "plain",
    scoreMethodReason: reason,
  });
  if (weighting.scoreMethod === "plain") return plain(weighting.reason);
  if (weighting.sampled !== outcome.native) {
    return plain("the score token read does not hold the score the answer was read with");
  }
  const native = roundScore(clampToScale(weighting.native, scale));
  return { ...outcome, native, score: toUnit(native, scale), scoreMethod: "probability-weighted" };
}
