import { type CallLane, createCallLane } from "../llm/callCeiling.js";
import {
  type ChatModelOptions,
  createChatModel,
  type JudgeModel,
  withLane,
  withTimeout,
} from "../llm/chatModel.js";
import type { EvaluateContentOptions } from "./options.js";

/** A judge built by createChatModel (as opposed to a spec or a LangChain chat model). */
export function isJudgeModel(model: unknown): model is JudgeModel {
  return typeof model === "object" && model !== null && "candidates" in model && "retry" in model;
}

/**
 * The judge: a ready-made one with the caller's timeout when one is given (its own otherwise), or
 * one built from a spec / chat model with the evaluation's options. Its calls queue in `lane` at
 * their server's ceiling on calls in flight (default: a lane of its own), so the evaluations of
 * the process take turns for the server's slots.
 */
export function resolveJudgeModel(
  model: Exclude<EvaluateContentOptions["model"], null>,
  options: ChatModelOptions = {},
  lane: CallLane = createCallLane(),
): JudgeModel {
  if (isJudgeModel(model)) {
    const timed = options.timeoutMs === undefined ? model : withTimeout(model, options.timeoutMs);
    return withLane(timed, lane);
  }
  return withLane(createChatModel(model, options), lane);
}
