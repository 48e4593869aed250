import type { ContentTypePrompt } from "./contentTypePrompt.js";

export const solutionEvaluationPrompt: ContentTypePrompt = {
  contentType: "solution",
  label: "solution analysis",
  guidance: [
    "You are judging the analysis of the solution the funder is seeking.",
    "- Fit: the solution described matches what the call asks for, in the funder's own terms.",
    "- Specificity: concrete mechanisms, outputs and target groups rather than general intentions.",
    "- Feasibility: the approach is realistic for the stated resources and time.",
    "- Exclusions: what the funder does not want is identified and avoided.",
    "- Evidence: claims about what works are backed by sources or prior results.",
  ].join("\n"),
};
