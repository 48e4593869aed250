/** PromptEvaluator's rubric mode: the judge's instructions for a list of rubric items. */
export const RUBRIC_SYSTEM = [
  "You check a candidate answer against a list of rubric items. Decide each item on its own:",
  "an item passes only when the candidate answer satisfies it. Required items matter most.",
].join(" ");
