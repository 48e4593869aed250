import {
  type ChatModelOptions,
  createChatModel,
  type JudgeModel,
  withTimeout,
} from "../llm/chatModel.js";
import type { EvaluateContentOptions } from "./options.js";

/** A judge built by createChatModel (as opposed to a spec or a LangChain chat model). */
export function isJudgeModel(model: unknown): model is JudgeModel {
  return typeof model === "object" && model !== null && "candidates" in model && "retry" in model;
}

/**
 * The judge: a ready-made one with the caller's timeout when one is given (its own otherwise), or
 * one built from a spec / chat model with the evaluation's options.
 */
export function resolveJudgeModel(
  model: EvaluateContentOptions["model"],
  options: ChatModelOptions = {},
): JudgeModel {
  if (isJudgeModel(model)) {
    return options.timeoutMs === undefined ? model : withTimeout(model, options.timeoutMs);
  }
  return createChatModel(model, options);
}
