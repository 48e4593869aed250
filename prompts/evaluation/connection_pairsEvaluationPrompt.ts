import type { ContentTypePrompt } from "./contentTypePrompt.js";

export const connection_pairsEvaluationPrompt: ContentTypePrompt = {
  contentType: "connection_pairs",
  label: "connection pairs",
  guidance: [
    "You are judging connection pairs: links between the funder's priorities and the applicant's strengths.",
    "- Each pair names a specific funder priority and a specific applicant capability, project or result.",
    "- The link is substantive and explained, not a shared keyword.",
    "- Evidence for the applicant side is concrete (projects, figures, partners), not asserted.",
    "- The strongest priorities of the funder are covered; note important priorities with no pair.",
    "- No pair overstates what the applicant has done.",
  ].join("\n"),
};
