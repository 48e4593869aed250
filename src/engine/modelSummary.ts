import { SUMMARY_SYSTEM, summaryUserPrompt } from "../../prompts/evaluation/index.js";
import type { EvaluationResult } from "../scoring/result.js";
import { encodeResultsToon } from "../scoring/resultsToon.js";
import { judgeCallError } from "./errors.js";
import type { JudgeSession } from "./judgeSession.js";

/** A model-written summary; the deterministic one stays when the model cannot answer. */
export async function modelSummary(
  session: JudgeSession,
  catalogName: string,
  result: EvaluationResult,
): Promise<string> {
  const call = {
    purpose: "summary" as const,
    criterionIds: [],
    system: SUMMARY_SYSTEM,
    user: summaryUserPrompt({
      catalogName,
      resultsToon: encodeResultsToon(result),
      strengths: result.strengths,
      weaknesses: result.weaknesses,
      suggestions: result.suggestions,
    }),
  };
  const kept = await session.recall(call, (text) => text.trim() !== "");
  if (kept !== undefined) return kept.trim();
  try {
    const text = await session.call(call);
    if (text.trim() !== "") {
      await session.remember(call, text);
      return text.trim();
    }
    result.warnings.push("summary: the model gave an empty summary; the deterministic one is kept");
  } catch (error) {
    result.warnings.push(
      `summary: ${judgeCallError(error).message}; the deterministic one is kept`,
    );
  }
  return result.feedback;
}
