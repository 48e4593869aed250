/**
 * Which words of a clause its negators turn around. A negator reaches back from the word it turns
 * (an odd number of them turns it); one whose first judging word ahead is a negative term is spent
 * on that term, so a double negative reads positive and nothing else is turned by it. Every
 * question costs a bounded number of steps per word: linear in the clause, no pattern over it.
 */
import {
  ADVERB_NEGATORS,
  CONTENT_NOUNS,
  DETERMINER_NEGATORS,
  EXCEEDING,
  NEGATIVE_VERDICTS,
  NEGATIVE_WORDS,
  NEGATORS,
  POSITIVE_WORDS,
  PRESENCE_BARE,
  PRESENCE_WORDS,
  SCOPE_ENDS,
  VERDICT_VERBS,
} from "./reasoningLexicon.js";

/**
 * How many words back a negator reaches. One further away does not reach the word, which is read as
 * stated: "no line in the detailed travel cost table is ineligible" has "no" six words before
 * "ineligible", so "ineligible" reads as a flaw (and "no" turns "detailed", within its reach).
 */
export const NEGATION_REACH = 5;

/** How far "not" (and the other adverbs) reaches ahead to be spent on a negative term. */
const ADVERB_REACH = 2;

/** What the negators of one clause do to its words, by position. */
export interface Negations {
  /** An odd number of negators turns the word around. */
  turned(i: number): boolean;
  /** The word is a negative term a negator was spent on: "no gaps", "nothing is missing". */
  doubled(i: number): boolean;
  /** The negator at `k` was spent on a negative term ("contains no gaps"). */
  spent(k: number): boolean;
  /** A thing denied by a determiner: "no evidence", "without any plan", "could not find any data". */
  deniedThing(i: number): boolean;
  /** "not the criterion", "not this requirement": "not" right before the noun or its determiner. */
  deniedByNot(i: number): boolean;
}

/** "not true that …", "not the case that …": a "not" that denies the rest of its clause. */
function opensDenial(tokens: readonly string[], k: number): boolean {
  if (tokens[k] !== "not") return false;
  const next = tokens.slice(k + 1, k + 4).join(" ");
  return next.startsWith("true that") || next === "the case that";
}

/** Words that judge by themselves: the first one after a negator is the one it turns. */
function judging(word: string): boolean {
  return (
    VERDICT_VERBS.has(word) ||
    EXCEEDING.has(word) ||
    NEGATIVE_VERDICTS.has(word) ||
    PRESENCE_WORDS.has(word) ||
    PRESENCE_BARE.has(word) ||
    POSITIVE_WORDS.has(word)
  );
}

/**
 * The negators spent on a negative term: negator's position → the term's. A negator is spent when
 * the first judging word ahead of it is a negative term, within its reach (five words; two for
 * "not" and the other adverbs, so "does not compensate for the absence" keeps its "not" for the
 * verb), before any "and" / "or", content noun ("no evidence of gaps" denies the evidence) or
 * preposition ("no attempt to close the gaps" denies the attempt; "none of" keeps its own "of").
 * So "no ineligible costs are included" and "the budget contains no gaps" say nothing is wrong,
 * and "does not address the gaps" keeps its "not" for "address". Several negators spent on one
 * term count by parity: "not without gaps" (a triple negation) is a gap, and "it is not true that
 * no ineligible costs are included" denies the double negative again. A clause's denial ("not
 * true that") is never spent: it turns the rest of the clause.
 */
function spentNegators(tokens: readonly string[]): Map<number, number> {
  const spent = new Map<number, number>();
  tokens.forEach((word, k) => {
    if (!NEGATORS.has(word) || (word === "not" && tokens[k + 1] === "only")) return;
    if (opensDenial(tokens, k)) return;
    const reach = ADVERB_NEGATORS.has(word) ? ADVERB_REACH : NEGATION_REACH;
    for (let i = k + 1; i <= Math.min(tokens.length - 1, k + reach); i++) {
      const next = tokens[i] ?? "";
      if (next === "and" || next === "or" || judging(next) || CONTENT_NOUNS.has(next)) return;
      if (SCOPE_ENDS.has(next) && !(next === "of" && i === k + 1)) return;
      if (NEGATIVE_WORDS.has(next)) {
        spent.set(k, i);
        return;
      }
    }
  });
  return spent;
}

export function negationsOf(tokens: readonly string[]): Negations {
  const spentOn = spentNegators(tokens);
  const doubled = new Set(spentOn.values());
  // "It is not true that …": the first such denial turns every word past the ordinary reach.
  const denial = tokens.findIndex((_, k) => opensDenial(tokens, k));
  /** A negator at `j` that reads on the word at `i`: not one spent on another word. */
  const free = (j: number, i: number) => {
    const term = spentOn.get(j);
    return term === undefined || term === i;
  };
  const turned = (i: number): boolean => {
    // Only a denial out of the ordinary reach counts here; one within reach is counted below.
    let count = denial !== -1 && denial < i - NEGATION_REACH ? 1 : 0;
    for (let j = i - 1; j >= Math.max(0, i - NEGATION_REACH); j--) {
      const word = tokens[j] ?? "";
      if (word === "and" || word === "or") break;
      if (word === "not" && tokens[j + 1] === "only") continue;
      if (NEGATORS.has(word) && free(j, i)) count++;
      // "fails to meet", "failed to provide": the failure turns the next verb around.
      if ((word === "fail" || word === "fails" || word === "failed") && tokens[j + 1] === "to")
        count++;
    }
    return count % 2 === 1;
  };
  const deniedThing = (i: number): boolean => {
    for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
      const word = tokens[j] ?? "";
      if (DETERMINER_NEGATORS.has(word) && free(j, i)) return true;
      if (word !== "any") continue;
      for (let k = j - 1; k >= Math.max(0, j - 3); k--) {
        if (tokens[k] === "not" && free(k, i)) return true;
      }
    }
    return false;
  };
  const deniedByNot = (i: number): boolean => {
    const before = tokens[i - 1] ?? "";
    if (before === "not") return free(i - 1, i);
    const determiner = /^(?:the|this|that|its|a|an)$/.test(before);
    return determiner && tokens[i - 2] === "not" && free(i - 2, i);
  };
  return {
    turned,
    doubled: (i) => doubled.has(i),
    spent: (k) => spentOn.has(k),
    deniedThing,
    deniedByNot,
  };
}
