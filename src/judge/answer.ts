import { z } from "zod";
import { notEvaluatedOutcome } from "../scoring/criterionResult.js";
import { type CriterionOutcome, NativeValueSchema } from "../scoring/result.js";

export const MAX_LIST_ITEMS = 4;

export const MAX_QUOTES = 3;
export const MAX_QUOTE_CHARS = 300;

/** A judge's answer for one criterion; `usable: false` with `judgeError` when none was taken. */
export const JudgeAnswerSchema = z.object({
  usable: z.boolean(),
  score01: z.number().min(0).max(1),
  /** On the criterion's scale: 4 (1–5), 0.8 (0–1), "pass" / "fail", a level id; null if unusable. */
  native: NativeValueSchema,
  level: z.string().optional(),
  reasoning: z.string(),
  hits: z.array(z.string()).max(MAX_LIST_ITEMS),
  misses: z.array(z.string()).max(MAX_LIST_ITEMS),
  quotes: z.array(z.string().max(MAX_QUOTE_CHARS)).max(MAX_QUOTES).optional(),
  notes: z.array(z.string()).default([]),
  judgeError: z.string().optional(),
});
export type JudgeAnswer = z.infer<typeof JudgeAnswerSchema>;

export function unusableAnswer(
  judgeError: string,
  reasoning = "",
  notes: string[] = [],
): JudgeAnswer {
  return {
    usable: false,
    score01: 0,
    native: null,
    reasoning,
    hits: [],
    misses: [],
    notes,
    judgeError,
  };
}

/** An unusable answer is not evaluated (never a zero) and carries the judge error. */
export function toOutcome(answer: JudgeAnswer): CriterionOutcome {
  if (!answer.usable) {
    const judgeError = answer.judgeError ?? "the judge's answer could not be used";
    return notEvaluatedOutcome(judgeError, answer.reasoning);
  }
  return {
    evaluated: true,
    score: answer.score01,
    native: answer.native,
    ...(answer.level === undefined ? {} : { level: answer.level }),
    reasoning: answer.reasoning,
    hits: answer.hits,
    misses: answer.misses,
    evidence: [],
    ...(answer.quotes === undefined || answer.quotes.length === 0 ? {} : { quotes: answer.quotes }),
  };
}
