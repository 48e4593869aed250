import type { ContentTypePrompt } from "./contentTypePrompt.js";

export const problem_statementEvaluationPrompt: ContentTypePrompt = {
  contentType: "problem_statement",
  label: "problem statement",
  guidance: [
    "You are judging the problem statement of a proposal.",
    "- The problem is specific, with who is affected, where and how much.",
    "- Its size and urgency are supported by data with sources.",
    "- Root causes are analysed, not only symptoms described.",
    "- The problem matches the funder's priorities and leads to the proposed solution.",
    "- Claims are not exaggerated beyond the evidence.",
  ].join("\n"),
};
