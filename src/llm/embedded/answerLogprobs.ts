/**
 * Token log-probabilities of an answer the embedded runtime generated, for probability-weighted
 * scores. node-llama-cpp samples through a grammar and reports no per-token probabilities on the
 * chat session's path, so they are computed after the answer, from the sequence: the answer's
 * tokens (and the prompt's last token) are erased from the sequence and evaluated again, asking
 * at each position for the `top` most likely next tokens' logits, the logit of the token the
 * answer has there, and the total logit weight (Σ exp(logit − max)). No full-vocabulary
 * probability map is built: p(token) = exp(logit − max) / weight, logprob = ln p.
 *
 * These are the model's own probabilities before any sampling setting or grammar (as Ollama and
 * OpenAI-compatible servers report them). The cost is one extra evaluation of the answer's
 * tokens, in slices of EVALUATION_SLICE tokens; the call's signal (the deadline and the caller's
 * cancellation) is checked between slices. At most MAX_RECORDED_TOKENS tokens are evaluated.
 */
import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { MAX_RECORDED_TOKENS, type TokenLogprob, topLogprobsAsked } from "../tokenLogprobs.js";

/** Answer tokens evaluated per controlledEvaluate call. */
const EVALUATION_SLICE = 64;
/** The tokens before an answer token given to the detokenizer (for word-start spaces). */
const DETOKENIZE_CONTEXT = 4;
/** The most tokens the runtime may have evaluated after the answer and left out of it. */
const MAX_TRAILING_TOKENS = 64;
/** The longest token text kept (a token is a few characters; the schema allows 1,024). */
const MAX_TOKEN_TEXT = 1_024;

let evaluatedTokens = 0;

/** The answer tokens evaluated again for their log-probabilities in this process, in all. */
export function answerTokensEvaluated(): number {
  return evaluatedTokens;
}

/** Whether `context` holds `answer` from `start` on (up to the end of either). */
function holdsAt<T>(context: readonly T[], answer: readonly T[], start: number): boolean {
  const end = Math.min(context.length, start + answer.length);
  for (let i = start; i < end; i++) {
    if (context[i] !== answer[i - start]) return false;
  }
  return true;
}

/**
 * Where the answer starts in the sequence's tokens: the last place the whole answer is, at most
 * MAX_TRAILING_TOKENS before the end (the runtime may have evaluated tokens it then trimmed, such
 * as trailing whitespace); else where the sequence's tail is the answer's beginning (its last
 * token sampled but not evaluated); undefined when the sequence holds no such place.
 */
export function answerStart<T>(context: readonly T[], answer: readonly T[]): number | undefined {
  if (answer.length === 0 || context.length === 0) return undefined;
  const lastWhole = context.length - answer.length;
  for (let start = lastWhole; start >= Math.max(1, lastWhole - MAX_TRAILING_TOKENS); start--) {
    if (holdsAt(context, answer, start)) return start;
  }
  for (let start = Math.max(1, lastWhole + 1); start < context.length; start++) {
    if (holdsAt(context, answer, start)) return start;
  }
  // A one-token answer: sampled, never evaluated.
  return answer.length === 1 ? context.length : undefined;
}

/** One position's log-probabilities: the answer's token's and the most likely tokens'. */
export interface PositionLogprobs<Id> {
  own: number;
  top: Array<[Id, number]>;
}

/**
 * Log-probabilities from one position's logits: p = exp(logit − max) / weight, where `weight` is
 * Σ exp(logit − max) over the whole vocabulary and `max` the highest logit (the first of the
 * top ones). `logits` holds the top tokens' and the answer's own token's; undefined when they do
 * not hold `own` or the weight is not a positive number.
 */
export function logprobsFromLogits<Id>(
  logits: ReadonlyMap<Id, number>,
  totalWeight: number,
  own: Id,
  top: number,
): PositionLogprobs<Id> | undefined {
  if (!(totalWeight > 0) || !Number.isFinite(totalWeight)) return undefined;
  const ranked = [...logits].sort(([, a], [, b]) => b - a);
  const max = ranked[0]?.[1];
  const ownLogit = logits.get(own);
  if (max === undefined || ownLogit === undefined || !Number.isFinite(max)) return undefined;
  const normaliser = max + Math.log(totalWeight);
  const logprob = (logit: number) => Math.min(0, logit - normaliser);
  return {
    own: logprob(ownLogit),
    top: ranked.slice(0, top).map(([id, logit]): [Id, number] => [id, logprob(logit)]),
  };
}

/** One position as a TokenLogprob, the token texts detokenized after the answer's previous ones. */
function positionLogprob(
  model: LlamaModel,
  answer: readonly Token[],
  index: number,
  next: { logits?: ReadonlyMap<Token, number>; totalLogitWeight?: number } | undefined,
  top: number,
): TokenLogprob | undefined {
  const token = answer[index];
  if (token === undefined || next?.logits === undefined || next.totalLogitWeight === undefined) {
    return undefined;
  }
  const position = logprobsFromLogits(next.logits, next.totalLogitWeight, token, top);
  if (position === undefined) return undefined;
  const previous = answer.slice(Math.max(0, index - DETOKENIZE_CONTEXT), index);
  const text = (id: Token) => model.detokenize([id], false, previous).slice(0, MAX_TOKEN_TEXT);
  return {
    token: text(token),
    logprob: position.own,
    top_logprobs: position.top.map(([id, logprob]) => ({ token: text(id), logprob })),
  };
}

/**
 * The answer's tokens with their log-probabilities and the `top` most likely alternatives at each
 * position; undefined when the answer is not at the end of the sequence, is too long, or the
 * signal fired. The sequence is left holding the prompt and the answer without its last token.
 */
export async function answerTokenLogprobs(
  sequence: LlamaContextSequence,
  answer: readonly Token[],
  topAsked: number,
  signal: AbortSignal | undefined,
): Promise<TokenLogprob[] | undefined> {
  if (answer.length === 0 || answer.length > MAX_RECORDED_TOKENS) return undefined;
  const start = answerStart(sequence.contextTokens, answer);
  if (start === undefined) return undefined;
  const top = topLogprobsAsked(topAsked);
  const context = sequence.contextTokens;
  // The token before the answer gives the first answer token's distribution, and so on.
  const inputs: Token[] = [context[start - 1] as Token, ...answer.slice(0, -1)];
  await sequence.eraseContextTokenRanges([{ start: start - 1, end: sequence.nextTokenIndex }]);
  const recorded: TokenLogprob[] = [];
  for (let from = 0; from < inputs.length; from += EVALUATION_SLICE) {
    if (signal?.aborted) return undefined;
    const slice = inputs.slice(from, from + EVALUATION_SLICE);
    const outputs = await sequence.controlledEvaluate(
      slice.map((input, i) => {
        const own = answer[from + i] as Token;
        return [
          input,
          {
            generateNext: {
              logits: { filter: { tokens: [own], includeTop: top } },
              totalLogitWeight: true,
            },
          },
        ];
      }),
    );
    evaluatedTokens += slice.length;
    for (let i = 0; i < slice.length; i++) {
      const position = positionLogprob(sequence.model, answer, from + i, outputs[i]?.next, top);
      if (position === undefined) return undefined;
      recorded.push(position);
    }
  }
  return recorded;
}
