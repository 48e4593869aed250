import type { ContentTypePrompt } from "./contentTypePrompt.js";

export const conclusionEvaluationPrompt: ContentTypePrompt = {
  contentType: "conclusion",
  label: "conclusion",
  guidance: [
    "You are judging the conclusion of a proposal.",
    "- It summarises the problem, the solution and the expected impact accurately, with no new claims.",
    "- It restates why the applicant is the right one to do the work.",
    "- It ties the impact to the funder's mission and priorities.",
    "- It is concise and ends with a clear statement of what is requested.",
    "- It is consistent with figures and commitments made elsewhere in the proposal.",
  ].join("\n"),
};
