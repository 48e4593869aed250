/**
 * A one-criterion quiz rubric in the rubric format (an `llm_decode` level choice), and a judge
 * whose injection guard finds nothing and whose decode answer the test gives: for tests of how
 * the rubric executor reads decode answers.
 */
import { ScriptedChatModel } from "../doubles/index.js";
import { systemPromptOf } from "./helpers.js";

export function quizRubric(scoringMethod: Record<string, unknown>, id = "quiz") {
  return {
    id,
    name: "Quiz",
    description: "Quiz quality",
    version: "1.0.0",
    target_type: "content",
    pass_threshold: 0.5,
    criteria: [
      {
        id: "depth",
        name: "Depth",
        description: "Questions test understanding",
        weight: 1,
        levels: [
          { id: "poor", label: "Poor", description: "Recall only", score: 0 },
          { id: "good", label: "Good", description: "Asks why", score: 1 },
        ],
        scoring_method: scoringMethod,
      },
    ],
  };
}

/** A judge that calls the content plain and gives `decodeAnswer` to the decode prompt. */
export function quizJudge(decodeAnswer: string): ScriptedChatModel {
  return new ScriptedChatModel({
    responder: (messages) =>
      /security classifier/.test(systemPromptOf(messages))
        ? '{"reasoning": "A plain quiz.", "instruction_bearing": false}'
        : decodeAnswer,
  });
}
