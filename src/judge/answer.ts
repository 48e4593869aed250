import { z } from "zod";
import { type CriterionOutcome, NativeValueSchema } from "../scoring/result.js";

/** Hits and misses hold at most four items each. */
export const MAX_LIST_ITEMS = 4;

/** A judge quotes the content at most three times per criterion … */
export const MAX_QUOTES = 3;
/** … each quote at most this many characters (a longer one is cut, and noted). */
export const MAX_QUOTE_CHARS = 300;

/**
 * What a judge's answer for one criterion says once read. `usable: false` means no answer could be
 * taken from the text: `judgeError` says why, the score is 0 and the criterion is not evaluated.
 * `notes` records what was corrected or doubted (score clamped, reasoning empty, a later JSON
 * object used) for the engine to report.
 */
export const JudgeAnswerSchema = z.object({
  usable: z.boolean(),
  /** 0–1. */
  score01: z.number().min(0).max(1),
  /** On the criterion's scale: 4 (1–5), 0.8 (0–1), "pass" / "fail", a level id; null if unusable. */
  native: NativeValueSchema,
  /** The level id, for levels criteria. */
  level: z.string().optional(),
  reasoning: z.string(),
  hits: z.array(z.string()).max(MAX_LIST_ITEMS),
  misses: z.array(z.string()).max(MAX_LIST_ITEMS),
  /** Passages of the content the judge quotes for its verdict (checked against the content). */
  quotes: z.array(z.string().max(MAX_QUOTE_CHARS)).max(MAX_QUOTES).optional(),
  notes: z.array(z.string()).default([]),
  judgeError: z.string().optional(),
});
export type JudgeAnswer = z.infer<typeof JudgeAnswerSchema>;

/** An answer that could not be used: score 0, no hits or misses, the reasoning if any. */
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

/**
 * The outcome scoring consumes. A usable answer is evaluated with its 0–1 score and native value;
 * an unusable one is not evaluated (score and native null) and carries the judge error.
 */
export function toOutcome(answer: JudgeAnswer): CriterionOutcome {
  if (!answer.usable) {
    return {
      evaluated: false,
      score: null,
      native: null,
      reasoning: answer.reasoning,
      hits: [],
      misses: [],
      evidence: [],
      judgeError: answer.judgeError ?? "the judge's answer could not be used",
    };
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
