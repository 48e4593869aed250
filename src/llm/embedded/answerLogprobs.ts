/**
 * Token log-probabilities of an embedded answer. node-llama-cpp reports none on the chat session's
 * path, so the answer's tokens are evaluated again, asking at each position for the top tokens'
 * logits, the answer token's and the total weight Σ exp(logit − max): p = exp(logit − max) /
 * weight, with no full-vocabulary map. These are the model's own probabilities before sampling or
 * grammar, as servers report them. The signal is checked between slices of EVALUATION_SLICE.
 */
import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { MAX_RECORDED_TOKENS, type TokenLogprob, topLogprobsAsked } from "../tokenLogprobs.js";

const EVALUATION_SLICE = 64;
/** The tokens before an answer token given to the detokenizer (for word-start spaces). */
const DETOKENIZE_CONTEXT = 4;
/** The most tokens the runtime may have evaluated after the answer and left out of it. */
const MAX_TRAILING_TOKENS = 64;
/** The longest token text kept (a token is a few characters; the schema allows 1,024). */
const MAX_TOKEN_TEXT = 1_024;

let evaluatedTokens = 0;

export function answerTokensEvaluated(): number {
  return evaluatedTokens;
}

function holdsAt<T>(context: readonly T[], answer: readonly T[], start: number): boolean {
  const end = Math.min(context.length, start + answer.length);
  for (let i = start; i < end; i++) {
    if (context[i] !== answer[i - start]) return false;
  }
  return true;
}

/**
 * Where the answer starts in the sequence: the last place the whole answer is, at most
 * MAX_TRAILING_TOKENS before the end (trimmed trailing tokens), else where the sequence's tail is
 * the answer's beginning (its last token sampled but not evaluated).
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

export interface PositionLogprobs<Id> {
  own: number;
  top: Array<[Id, number]>;
}

/** p = exp(logit − max) / weight; undefined when `logits` lacks `own` or the weight is not positive. */
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
 * The answer's tokens with their log-probabilities and top alternatives; undefined when the
 * answer is not at the sequence's end, is too long, or the signal fired.
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
