import type { ContentTypePrompt } from "./contentTypePrompt.js";

export const methodologyEvaluationPrompt: ContentTypePrompt = {
  contentType: "methodology",
  label: "methodology section",
  guidance: [
    "You are judging the methodology of a proposal.",
    "- Activities follow from the objectives and are described concretely enough to be carried out.",
    "- Methods are appropriate and justified; their limits and risks are named with mitigations.",
    "- Roles, responsibilities and resources for each activity are clear.",
    "- Success is measurable: indicators, data collection and an evaluation plan are stated.",
    "- The approach is realistic for the team, the budget and the time frame.",
  ].join("\n"),
};
