import { expect } from "vitest";
import { type RecordedMessage, ScriptedChatModel } from "../doubles/index.js";

/** A review asked again: its interrupt value, with the refusal of the last answer. */
export interface AskedAgain {
  description: string;
  refusal: { field: string; problem: string; fix: string };
  [key: string]: unknown;
}

/**
 * The interrupt a run that was resumed with a refused answer stopped at: the same review, asked
 * again, the refusal (what, which field, how to fix it) in its value and on top of its description.
 */
export function askedAgain(result: unknown): AskedAgain {
  const interrupts = (result as { __interrupt__?: Array<{ value: unknown }> }).__interrupt__;
  expect(interrupts, "the run did not stop at a review").toHaveLength(1);
  const value = interrupts?.[0]?.value as AskedAgain;
  expect(value.refusal, "the review did not say why it asks again").toBeDefined();
  expect(value.description.startsWith("**Your last answer was not accepted.**")).toBe(true);
  return value;
}

/**
 * A judge for any evaluation node catalog: every score criterion gets `score`, every check "pass";
 * records each call so tests can count model calls.
 */
export function scoringJudge(score = 0.85): ScriptedChatModel {
  return new ScriptedChatModel({ responder: judgeResponder(score) });
}

/** The judge answers behind scoringJudge, for composing responders. */
export function judgeResponder(score = 0.85) {
  return (messages: RecordedMessage[]): string => {
    const user = messages.at(-1)?.content ?? "";
    if (user.includes('"result"')) {
      return JSON.stringify({ reasoning: "The requirement is met on page 1.", result: "pass" });
    }
    return JSON.stringify({
      reasoning: "Specific, sourced and complete for this criterion.",
      score,
      hits: ["clear objectives"],
      misses: score < 0.7 ? ["no measurable outcomes"] : [],
    });
  };
}

/** Answers the proposal graph's writer prompts (by their task line) and its judge prompts. */
export function proposalResponder(score = 0.85) {
  const judge = judgeResponder(score);
  return (messages: RecordedMessage[]): string => {
    const system = messages[0]?.content ?? "";
    const user = messages.at(-1)?.content ?? "";
    return system.includes("grant writer") ? writerAnswer(user) : judge(messages);
  };
}

export function writerAnswer(user: string): string {
  if (user.startsWith("Analyse the request for proposals")) {
    return JSON.stringify({
      funder: "Calder Bay Community Foundation",
      priorities: ["climate resilience"],
      eligibility: ["registered nonprofit"],
      evaluationCriteria: ["need (25)"],
    });
  }
  if (user.startsWith("From the research")) {
    return JSON.stringify({
      problem: "heat and flood risk",
      desiredOutcomes: ["fewer displaced households"],
    });
  }
  if (user.startsWith("Match what the applicant")) {
    return JSON.stringify({
      pairs: [
        {
          funderNeed: "flood resilience",
          applicantCapability: "retrofit crews",
          evidence: "40 homes in 2024",
        },
      ],
    });
  }
  const title = /^Write the "([^"]+)" section/.exec(user)?.[1] ?? "Section";
  const revised = user.includes("Reviewer feedback:") ? " (revised)" : "";
  return `${title} text${revised}: specific, sourced content with measurable targets.`;
}
