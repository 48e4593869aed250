/** What one candidate of a judge's answer says under its contract, and how a decision becomes an answer. */
import type { JudgeAnswer } from "./answer.js";
import type { Decision } from "./answerContract.js";
import type { readQuotes } from "./answerValues.js";

/** What one candidate object says under the contract. */
export type Interpretation =
  | { status: "ok"; answer: JudgeAnswer }
  | { status: "unjustified" }
  | { status: "missing"; field: string; reasoning: string }
  | { status: "invalid"; error: string; reasoning: string }
  | { status: "ambiguous"; error: string; reasoning: string };

/** A decision with its justification as an answer; no justification, no answer. */
export function justified(
  decision: { value: Decision; notes: string[] },
  reasoning: string,
  lists: { hits: string[]; misses: string[]; quotes?: ReturnType<typeof readQuotes> } = {
    hits: [],
    misses: [],
  },
): Interpretation {
  if (reasoning === "") return { status: "unjustified" };
  const answer: JudgeAnswer = {
    usable: true,
    score01: decision.value.score01,
    native: decision.value.native,
    reasoning,
    hits: lists.hits,
    misses: lists.misses,
    quotes: lists.quotes?.quotes ?? [],
    notes: [...decision.notes, ...(lists.quotes?.notes ?? [])],
  };
  if (decision.value.level !== undefined) answer.level = decision.value.level;
  return { status: "ok", answer };
}
