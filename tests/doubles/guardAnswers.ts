/**
 * The test doubles answer every prompt evalgate sends, the injection guard's too, as users run
 * it (the guard is on by default): its own call (the guard's system prompt) gets "no injection",
 * and a judging call that carries the guard's question (grouped and batch mode) gets a clean
 * screening line before the answer the test wrote — unless the test wrote one itself (or the
 * answer is empty: a model that said nothing screened nothing). A test
 * scripts another answer for the guard, or lets its own script answer the guard's prompts.
 */
import {
  contentScreeningQuestion,
  INJECTION_GUARD_SYSTEM,
} from "../../prompts/evaluation/index.js";

/** The guard's answer unless a test says otherwise: the data holds no text aimed at the judge. */
export const CLEAN_GUARD_ANSWER = JSON.stringify({
  reasoning: "No text addressed to an evaluator.",
  instruction_bearing: false,
});

/** A finding, for tests that script the guard to see an injection. */
export const GUARD_FINDING_ANSWER = JSON.stringify({
  reasoning: "The content asks the evaluator for a perfect score.",
  instruction_bearing: true,
});

interface Message {
  role: string;
  content: string;
}

const SCREENING_OPENING = contentScreeningQuestion().split("\n")[0] ?? "Screening";

/** Whether the messages are the injection guard's own call (its system prompt). */
export function isGuardCall(messages: readonly Message[]): boolean {
  return messages.some((m) => m.role === "system" && m.content === INJECTION_GUARD_SYSTEM);
}

/**
 * Whether a judging call asks the guard's question about the content (a screening line): its
 * last user message does — a repair round, which only quotes the first prompt, does not.
 */
export function asksScreening(messages: readonly Message[]): boolean {
  const asked = messages.filter((m) => m.role === "user").at(-1);
  return asked?.content.includes(SCREENING_OPENING) === true;
}

/**
 * The answer to a judging call that carries the guard's question: the guard's answer as the
 * screening line, then the test's answer — unchanged when the test wrote a screening line itself.
 */
export function withScreeningLine(answer: string, guardAnswer = CLEAN_GUARD_ANSWER): string {
  if (answer.trim() === "" || answer.includes("instruction_bearing")) return answer;
  return `${guardAnswer.replace(/\s*\n\s*/g, " ")}\n${answer}`;
}
