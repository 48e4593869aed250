import type { ContentTypePrompt } from "./contentTypePrompt.js";

export const budgetEvaluationPrompt: ContentTypePrompt = {
  contentType: "budget",
  label: "budget section",
  guidance: [
    "You are judging the budget of a proposal.",
    "- Arithmetic: line items must add up to the stated subtotals and totals; report every mismatch with the figures.",
    "- Justification: each cost is explained and tied to an activity; unit costs and quantities are given.",
    "- Reasonableness: costs are plausible for the work and the region; flag padded or missing costs.",
    "- Eligibility: costs respect the funder's rules (caps, ineligible items, overhead rates, co-funding).",
    "- Consistency: staff, travel and equipment match what the methodology and timeline describe.",
  ].join("\n"),
};
