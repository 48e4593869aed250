import type { ContentTypePrompt } from "./contentTypePrompt.js";

export const timelineEvaluationPrompt: ContentTypePrompt = {
  contentType: "timeline",
  label: "timeline",
  guidance: [
    "You are judging the timeline of a proposal.",
    "- Phases: the work is divided into phases with start and end dates or months.",
    "- Dependencies: the order respects dependencies between activities; nothing starts before what it needs.",
    "- Milestones and deliverables are dated and verifiable.",
    "- An evaluation phase (or ongoing evaluation) and reporting are scheduled.",
    "- The schedule fits the funding period and is realistic, with some slack for risks.",
  ].join("\n"),
};
