/**
 * What a judge's reasoning concludes: clauses that state no finding of the judge's own
 * (concessions, conditions, reported views) are set aside; verdicts on the criterion are read with
 * their negations (an odd number of negators turns a word around). A negator whose first judging
 * word is a negative term is spent on it ("no ineligible costs are included", "no gaps remain":
 * nothing is wrong; see reasoningNegation.ts). The last verdict decides; with none, weaker judgements decide when they all
 * point one way.
 */
import {
  CANNOT_JUDGE,
  CLAUSE_OPENERS,
  CONCESSION_OPENERS,
  CONTENT_NOUNS,
  CRITERION_NOUNS,
  EMPHATIC,
  EXCEEDING,
  HEDGES,
  HYPOTHETICAL,
  NEGATIVE_VERDICTS,
  NEGATIVE_WORDS,
  POSITIVE_WORDS,
  PRESENCE_BARE,
  PRESENCE_WORDS,
  REPORTED,
  SET_ASIDE,
  SOFTENERS,
  TOPIC_PREPOSITIONS,
  TRAILING_NEGATORS,
  VERDICT_VERBS,
} from "./reasoningLexicon.js";
import { NEGATION_REACH, negationsOf } from "./reasoningNegation.js";

export const MAX_REASONING_CHARS = 8_000;

export interface ReasoningStance {
  verdict: "met" | "not met" | undefined;
  clause?: string;
  /**
   * Positive with no reservation: nothing negative, no hedge, and emphatic, decisive or a flaw
   * denied outright ("no gaps remain").
   */
  glowing: boolean;
}

interface Verdict {
  met: boolean;
  hedged: boolean;
  clause: string;
}

interface Tally {
  verdicts: Verdict[];
  positives: number;
  negatives: number;
  hedged: boolean;
  emphatic: boolean;
  /** A flaw denied outright ("no gaps remain"): decisive when nothing else is negative. */
  flawDenied: boolean;
  negativeClause?: string;
  positiveClause?: string;
}

function sentencesOf(text: string): string[] {
  const normal = text
    .slice(0, MAX_REASONING_CHARS)
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/\bcannot\b/g, "can not")
    .replace(/n't\b/g, " not");
  return normal.split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim() !== "");
}

function clausesOf(sentence: string): Array<{ text: string; conceded: boolean }> {
  const opener = [...CLAUSE_OPENERS].join("|");
  const parts = sentence
    .split(new RegExp(`\\s*[;:()\\u2013\\u2014]\\s*|\\s+(?=(?:${opener})\\b)`))
    .filter((p) => p.trim() !== "");
  return parts.flatMap((part) => {
    const first = /^[a-z]+/.exec(part.trim())?.[0] ?? "";
    const concession = CONCESSION_OPENERS.has(first) || /^even\s+(?:though|if)\b/.test(part.trim());
    if (!concession) return [{ text: part, conceded: false }];
    const comma = part.indexOf(",");
    if (comma === -1) return [{ text: part, conceded: true }];
    return [
      { text: part.slice(0, comma), conceded: true },
      { text: part.slice(comma + 1), conceded: false },
    ];
  });
}

function tokensOf(clause: string): string[] {
  return clause.match(/[a-z][a-z'-]*/g) ?? [];
}

/** "not stated explicitly": not in so many words, which neither says it is there nor that it is not. */
function softened(tokens: readonly string[], i: number): boolean {
  return SOFTENERS.has(tokens[i + 1] ?? "") || SOFTENERS.has(tokens[i - 1] ?? "");
}

/** "only the objectives are given": a limited presence is no sign that the criterion is met. */
function limited(tokens: readonly string[], i: number): boolean {
  return tokens.slice(Math.max(0, i - NEGATION_REACH), i).includes("only");
}

function readClause(clause: string, setAside: boolean, tally: Tally): void {
  const tokens = tokensOf(clause);
  const aboutCriterion = tokens.some((t) => CRITERION_NOUNS.has(t)) || tokens.length <= 3;
  const hedged = tokens.some((t) => HEDGES.has(t));
  if (CANNOT_JUDGE.test(clause)) {
    tally.verdicts.push({ met: false, hedged, clause });
    return;
  }
  let verdict: boolean | undefined;
  const negations = negationsOf(tokens);
  tokens.forEach((word, i) => {
    const turned = negations.turned(i);
    if (turned && softened(tokens, i)) return;
    if (word === "fail" || word === "fails" || word === "failed") {
      if (tokens[i + 1] !== "to" && aboutCriterion) verdict = turned;
    } else if (NEGATIVE_VERDICTS.has(word) && aboutCriterion) {
      verdict = turned;
    } else if (EXCEEDING.has(word)) {
      if (aboutCriterion && !turned) verdict = true;
    } else if (VERDICT_VERBS.has(word)) {
      if (aboutCriterion) verdict = !turned;
      else count(tally, !turned, setAside, clause);
    } else if (PRESENCE_WORDS.has(word)) {
      const denied =
        turned || (TRAILING_NEGATORS.has(tokens[i + 1] ?? "") && !negations.spent(i + 1));
      if (denied || !limited(tokens, i)) count(tally, !denied, setAside, clause);
    } else if (PRESENCE_BARE.has(word)) {
      if (turned) count(tally, false, setAside, clause);
    } else if (CONTENT_NOUNS.has(word)) {
      if (negations.deniedThing(i)) count(tally, false, setAside, clause);
    } else if (
      (word === "nothing" || word === "none") &&
      TOPIC_PREPOSITIONS.has(tokens[i + 1] ?? "") &&
      !negations.spent(i)
    ) {
      count(tally, false, setAside, clause);
    } else if (POSITIVE_WORDS.has(word)) {
      count(tally, !turned, setAside, clause);
    } else if (NEGATIVE_WORDS.has(word)) {
      count(tally, turned, setAside, clause);
      if (turned && negations.doubled(i)) tally.flawDenied = true;
    } else if (CRITERION_NOUNS.has(word) && negations.deniedByNot(i)) {
      // "but not the criterion": a criterion named only to be denied.
      verdict = false;
    }
    if (EMPHATIC.has(word) && !turned) tally.emphatic = true;
  });
  if (hedged) tally.hedged = true;
  if (verdict !== undefined) tally.verdicts.push({ met: verdict, hedged, clause });
}

function count(tally: Tally, positive: boolean, setAside: boolean, clause: string): void {
  if (positive) {
    tally.positives++;
    tally.positiveClause = clause;
  } else if (!setAside) {
    tally.negatives++;
    tally.negativeClause = clause;
  }
}

export function readReasoningStance(reasoning: string): ReasoningStance {
  const tally: Tally = {
    verdicts: [],
    positives: 0,
    negatives: 0,
    hedged: false,
    emphatic: false,
    flawDenied: false,
  };
  for (const sentence of sentencesOf(reasoning)) {
    const setAside = SET_ASIDE.test(sentence);
    for (const { text, conceded } of clausesOf(sentence)) {
      if (conceded || REPORTED.test(text)) continue;
      // "Whether it works cannot be determined": an inability to judge is a finding, not a question.
      if (HYPOTHETICAL.test(text) && !(/^\s*whether\b/.test(text) && CANNOT_JUDGE.test(text))) {
        continue;
      }
      readClause(text, setAside, tally);
    }
  }
  const last = tally.verdicts.at(-1);
  const negatives = tally.negatives + tally.verdicts.filter((v) => !v.met).length;
  const glowing =
    negatives === 0 &&
    !tally.hedged &&
    (tally.emphatic || tally.flawDenied || last !== undefined) &&
    (last?.met ?? tally.positives > 0);
  if (last !== undefined) {
    return { verdict: last.met ? "met" : "not met", clause: last.clause.trim(), glowing };
  }
  if (tally.negatives > 0 && tally.positives === 0) {
    return { verdict: "not met", clause: tally.negativeClause?.trim(), glowing };
  }
  if (tally.positives > 0 && tally.negatives === 0) {
    return { verdict: "met", clause: tally.positiveClause?.trim(), glowing };
  }
  return { verdict: undefined, glowing: false };
}
