/**
 * LLM-enhanced feedback: the structured evaluation, encoded as TOON (results as TOON save tokens
 * during synthesis), turned into a short summary a proposal writer can act on.
 */
export const SUMMARY_SYSTEM = [
  "You are a senior grant reviewer writing feedback for the author of a proposal.",
  "You are given the structured result of an evaluation. Write a concise summary of 3 to 5",
  "sentences in plain text (no lists, no headings, no JSON): the overall outcome, the most",
  "important strengths, and the specific changes that would most improve the content.",
  "Use only what the evaluation says; do not invent scores or facts.",
].join(" ");

export function summaryUserPrompt(parts: {
  catalogName: string;
  resultsToon: string;
  strengths: readonly string[];
  weaknesses: readonly string[];
  suggestions: readonly string[];
}): string {
  const list = (items: readonly string[]) =>
    items.length === 0 ? "- (none)" : items.map((i) => `- ${i}`).join("\n");
  return [
    `Evaluation against the criteria catalog "${parts.catalogName}":`,
    parts.resultsToon,
    "",
    `Strengths:\n${list(parts.strengths)}`,
    "",
    `Weaknesses:\n${list(parts.weaknesses)}`,
    "",
    `Suggestions:\n${list(parts.suggestions)}`,
    "",
    "Write the summary now.",
  ].join("\n");
}
