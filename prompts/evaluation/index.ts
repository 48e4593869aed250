import { budgetEvaluationPrompt } from "./budgetEvaluationPrompt.js";
import { conclusionEvaluationPrompt } from "./conclusionEvaluationPrompt.js";
import { connection_pairsEvaluationPrompt } from "./connection_pairsEvaluationPrompt.js";
import type { ContentTypePrompt } from "./contentTypePrompt.js";
import { methodologyEvaluationPrompt } from "./methodologyEvaluationPrompt.js";
import { problem_statementEvaluationPrompt } from "./problem_statementEvaluationPrompt.js";
import { researchEvaluationPrompt } from "./researchEvaluationPrompt.js";
import { solutionEvaluationPrompt } from "./solutionEvaluationPrompt.js";
import { timelineEvaluationPrompt } from "./timelineEvaluationPrompt.js";

export * from "./answerFormats.js";
export * from "./batchPrompt.js";
export * from "./checkPrompt.js";
export type { ContentTypePrompt } from "./contentTypePrompt.js";
export * from "./freeformPrompt.js";
export * from "./injectionGuardPrompt.js";
export * from "./levelsPrompt.js";
export * from "./pointPrompt.js";
export * from "./rubricPrompt.js";
export * from "./scale.js";
export * from "./scorePrompt.js";
export * from "./summaryPrompt.js";
export * from "./systemPrompt.js";
export {
  budgetEvaluationPrompt,
  conclusionEvaluationPrompt,
  connection_pairsEvaluationPrompt,
  methodologyEvaluationPrompt,
  problem_statementEvaluationPrompt,
  researchEvaluationPrompt,
  solutionEvaluationPrompt,
  timelineEvaluationPrompt,
};

/** Content type → the guidance added to the judge's system prompt for it. */
export const CONTENT_TYPE_PROMPTS: Readonly<Record<string, ContentTypePrompt>> = {
  research: researchEvaluationPrompt,
  solution: solutionEvaluationPrompt,
  connection_pairs: connection_pairsEvaluationPrompt,
  problem_statement: problem_statementEvaluationPrompt,
  methodology: methodologyEvaluationPrompt,
  budget: budgetEvaluationPrompt,
  timeline: timelineEvaluationPrompt,
  conclusion: conclusionEvaluationPrompt,
};

/** Other names the graph state uses for the same content. */
const CONTENT_TYPE_ALIASES: Readonly<Record<string, string>> = {
  solution_sought: "solution",
  connections: "connection_pairs",
  connection: "connection_pairs",
  problem: "problem_statement",
  research_results: "research",
};

/**
 * A content type in the snake_case form the prompts are keyed by: `connectionPairs`,
 * `connection-pairs` and `Connection Pairs` all become `connection_pairs`; known aliases
 * (`solutionSought`, `connections`) are resolved.
 */
export function normaliseContentType(contentType: string): string {
  const snake = contentType
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[\s-]+/g, "_")
    .toLowerCase();
  return CONTENT_TYPE_ALIASES[snake] ?? snake;
}

/** The prompt for a content type, or undefined when there is no specific guidance for it. */
export function contentTypePrompt(contentType: string): ContentTypePrompt | undefined {
  return CONTENT_TYPE_PROMPTS[normaliseContentType(contentType)];
}
