import type { ContentTypePrompt } from "./contentTypePrompt.js";

export const researchEvaluationPrompt: ContentTypePrompt = {
  contentType: "research",
  label: "research results",
  guidance: [
    "You are judging research results gathered for a funding proposal (funder, programme, RFP).",
    "- Accuracy: claims must match the source documents; flag any claim the sources contradict or do not support.",
    "- Sources: important facts carry a source; prefer primary sources (the call text, the funder's own pages).",
    "- Relevance: the findings bear on the funder's priorities, eligibility rules and evaluation criteria.",
    "- Currency: deadlines, amounts and rules are current; note anything that may be outdated.",
    "- Gaps: name the questions a proposal writer still needs answered.",
  ].join("\n"),
};
