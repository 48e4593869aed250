import { ScriptedChatModel } from "../doubles/index.js";

/**
 * A judge for any seed 004 catalog: every score criterion gets `score`, every check "pass";
 * records each call so tests can count model calls.
 */
export function scoringJudge(score = 0.85): ScriptedChatModel {
  return new ScriptedChatModel({
    responder: (messages) => {
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
    },
  });
}
